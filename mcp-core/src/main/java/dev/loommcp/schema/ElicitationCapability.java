package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The client's {@code elicitation} capability (MCP 2025-11-25 "ClientCapabilities.elicitation"): present when the
 * client answers {@code elicitation/create}. An empty object ({@code {}}, both components {@code null}) means form
 * mode only.
 *
 * @param form present (usually {@code {}}) if the client supports form mode; or {@code null}
 * @param url  present (usually {@code {}}) if the client supports URL mode (2025-11-25); or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ElicitationCapability(@Nullable Map<String, @Nullable Object> form,
                                    @Nullable Map<String, @Nullable Object> url) {

    /** Creates the record; maps are copied. */
    public ElicitationCapability {
        form = Copies.map(form);
        url = Copies.map(url);
    }

    /**
     * Returns form mode only, written as {@code {"form":{}}}.
     *
     * @return the capability
     */
    public static ElicitationCapability formOnly() {
        return new ElicitationCapability(Map.of(), null);
    }

    /**
     * Returns form and URL mode, written as {@code {"form":{},"url":{}}}.
     *
     * @return the capability
     */
    public static ElicitationCapability formAndUrl() {
        return new ElicitationCapability(Map.of(), Map.of());
    }

    /**
     * Returns whether form mode is supported: {@code form} is present, or neither mode is (the empty object).
     *
     * @return whether form mode is declared
     */
    public boolean supportsForm() {
        return form != null || url == null;
    }

    /**
     * Returns whether URL mode is supported.
     *
     * @return whether {@code url} is present
     */
    public boolean supportsUrl() {
        return url != null;
    }
}
