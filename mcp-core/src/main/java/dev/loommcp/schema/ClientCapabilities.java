package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the client supports (MCP 2025-11-25 "ClientCapabilities"; {@code elicitation} from 2025-06-18,
 * {@code tasks} 2025-11-25 only, {@code extensions} 2026-07-28 only). A {@code null} component is not declared.
 *
 * @param experimental non-standard capabilities, by name; or {@code null}
 * @param roots        the roots capability, or {@code null}
 * @param sampling     the sampling capability, or {@code null}
 * @param elicitation  the elicitation capability, or {@code null}
 * @param tasks        the experimental tasks capability of 2025-11-25 (SPEC-NOTES 11.2), as plain JSON; or
 *                     {@code null}
 * @param extensions   the extensions the client supports, by {@code <prefix>/<name>}, with their settings (modern
 *                     era only); or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClientCapabilities(@Nullable Map<String, @Nullable Object> experimental, @Nullable RootsCapability roots,
                                 @Nullable SamplingCapability sampling, @Nullable ElicitationCapability elicitation,
                                 @Nullable Map<String, @Nullable Object> tasks,
                                 @Nullable Map<String, @Nullable Object> extensions) {

    /** Creates the record; maps are copied. */
    public ClientCapabilities {
        experimental = Copies.map(experimental);
        tasks = Copies.map(tasks);
        extensions = Copies.map(extensions);
    }

    /**
     * Returns no optional capabilities, written as {@code {}}.
     *
     * @return the capabilities
     */
    public static ClientCapabilities of() {
        return new ClientCapabilities(null, null, null, null, null, null);
    }
}
