package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The client's answer to {@code elicitation/create} (MCP 2025-11-25 "ElicitResult"; SPEC-NOTES section 10).
 *
 * @param action  {@code "accept"} (submitted or confirmed), {@code "decline"} (explicitly refused) or
 *                {@code "cancel"} (dismissed); not {@code null}
 * @param content the submitted form data: values are strings, numbers, booleans or lists of strings; present only
 *                for an accepted form-mode request; or {@code null}
 * @param meta    the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ElicitResult(String action, @Nullable Map<String, @Nullable Object> content,
                           @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** The wire value of {@code action} for accept: {@value}. */
    public static final String ACCEPT = "accept";
    /** The wire value of {@code action} for decline: {@value}. */
    public static final String DECLINE = "decline";
    /** The wire value of {@code action} for cancel: {@value}. */
    public static final String CANCEL = "cancel";

    /**
     * Creates the record; maps are copied (shallowly).
     *
     * @throws NullPointerException if {@code action} is {@code null}
     */
    public ElicitResult {
        Objects.requireNonNull(action, "action");
        content = Copies.map(content);
        meta = Copies.map(meta);
    }

    /**
     * Returns an accept. For a URL-mode request pass {@code null}: the content is omitted.
     *
     * @param content the form data, or {@code null}
     * @return the result
     */
    public static ElicitResult accept(@Nullable Map<String, @Nullable Object> content) {
        return new ElicitResult(ACCEPT, content, null);
    }

    /**
     * Returns a decline: the user explicitly refused.
     *
     * @return the result
     */
    public static ElicitResult decline() {
        return new ElicitResult(DECLINE, null, null);
    }

    /**
     * Returns a cancel: the user dismissed the request without choosing.
     *
     * @return the result
     */
    public static ElicitResult cancel() {
        return new ElicitResult(CANCEL, null, null);
    }
}
