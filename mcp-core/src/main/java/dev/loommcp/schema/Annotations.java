package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Hints for the client on how to use or show an object (MCP 2025-11-25 "Annotations", from 2025-03-26;
 * {@code lastModified} from 2025-06-18). Untrusted unless the server is trusted.
 *
 * @param audience     who the data is for: {@code "user"}, {@code "assistant"} or both; or {@code null}
 * @param priority     importance from 0 (optional) to 1 (effectively required), or {@code null}
 * @param lastModified when the data was last modified, an ISO 8601 string such as {@code "2025-01-12T15:00:58Z"}, or
 *                     {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Annotations(@Nullable List<String> audience, @Nullable Double priority, @Nullable String lastModified) {
    /** Creates the record; {@code audience} is copied. */
    public Annotations {
        audience = Copies.list(audience);
    }
}
