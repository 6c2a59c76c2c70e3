package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The params of {@code elicitation/create}, the server asking the user for input (MCP 2025-11-25
 * "ElicitRequestFormParams" and "ElicitRequestURLParams"; SPEC-NOTES section 10). Form mode ({@code mode} absent or
 * {@code "form"}) carries {@code requestedSchema}; URL mode ({@code "url"}, 2025-11-25) carries {@code url} and
 * {@code elicitationId}.
 *
 * @param mode            {@code "form"}, {@code "url"}, or {@code null} (form)
 * @param message         the message to show the user
 * @param requestedSchema form mode: a flat JSON Schema object whose {@code properties} are primitive schemas
 *                        (string, number, integer, boolean, enum), as plain JSON; otherwise {@code null}
 * @param url             URL mode: the URL the user should open (show it in full, never open it automatically);
 *                        a handler only ever gets an https URL (http only on a loopback host); otherwise
 *                        {@code null}
 * @param elicitationId   URL mode: the server's opaque id of this elicitation; otherwise {@code null}
 * @param meta            the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ElicitRequest(@Nullable String mode, @Nullable String message,
                            @Nullable Map<String, @Nullable Object> requestedSchema, @Nullable String url,
                            @Nullable String elicitationId,
                            @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** The wire value of {@code mode} for form mode: {@value}. */
    public static final String MODE_FORM = "form";
    /** The wire value of {@code mode} for URL mode: {@value}. */
    public static final String MODE_URL = "url";

    /** Creates the record; maps are copied (shallowly). */
    public ElicitRequest {
        requestedSchema = Copies.map(requestedSchema);
        meta = Copies.map(meta);
    }

    /**
     * Returns a form-mode request (with {@code mode} omitted, as 2025-06-18 servers send it).
     *
     * @param message         the message
     * @param requestedSchema the requested schema
     * @return the request
     */
    public static ElicitRequest form(String message, Map<String, @Nullable Object> requestedSchema) {
        return new ElicitRequest(null, message, requestedSchema, null, null, null);
    }

    /**
     * Returns a URL-mode request.
     *
     * @param message       the message
     * @param url           the URL
     * @param elicitationId the elicitation id
     * @return the request
     */
    public static ElicitRequest url(String message, String url, String elicitationId) {
        return new ElicitRequest(MODE_URL, message, null, url, elicitationId, null);
    }

    /**
     * Returns whether this is a URL-mode request. A missing {@code mode} means form mode.
     *
     * @return {@code "url".equals(mode)}
     */
    @JsonIgnore
    public boolean isUrlMode() {
        return MODE_URL.equals(mode);
    }

    /**
     * Fills in defaults: returns a new map with {@code content}'s entries plus, for every property of
     * {@code requestedSchema.properties} that has a non-null {@code default} and is absent (or {@code null}) in
     * {@code content}, that default (spec 2025-11-25, SEP-1034: defaults of string, number, integer, boolean and
     * enum properties; an array default of a multi-select enum is copied). Values already in {@code content} are
     * never changed, and nothing is validated. In URL mode, or without a usable schema, it only copies
     * {@code content}.
     *
     * @param content what the user entered, or {@code null} (nothing)
     * @return a new, modifiable map in the order of {@code content} followed by the filled-in properties in schema
     *         order
     */
    public Map<String, @Nullable Object> applyDefaults(@Nullable Map<String, @Nullable Object> content) {
        Map<String, @Nullable Object> out = content == null ? new LinkedHashMap<>() : new LinkedHashMap<>(content);
        if (isUrlMode() || requestedSchema == null || !(requestedSchema.get("properties") instanceof Map<?, ?> props)) {
            return out;
        }
        for (Map.Entry<?, ?> e : props.entrySet()) {
            if (e.getKey() instanceof String name && e.getValue() instanceof Map<?, ?> schema
                    && out.get(name) == null) {
                Object def = schema.get("default");
                if (def instanceof List<?> list) {
                    out.put(name, new ArrayList<>(list));
                } else if (def != null) {
                    out.put(name, def);
                }
            }
        }
        return out;
    }
}
