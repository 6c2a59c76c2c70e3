package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The result of the legacy {@code initialize} handshake (MCP 2025-11-25 "InitializeResult"; SPEC-NOTES 3.2). Fields
 * the spec requires are not checked here: the client checks them and names what is missing.
 *
 * @param protocolVersion the protocol version the server chose
 * @param capabilities    what the server supports
 * @param serverInfo      the server's name and version
 * @param instructions    how to use the server, a hint for the model; or {@code null}
 * @param meta            the {@code _meta} object, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InitializeResult(@Nullable String protocolVersion, @Nullable ServerCapabilities capabilities,
                               @Nullable Implementation serverInfo, @Nullable String instructions,
                               @JsonProperty("_meta") @Nullable Map<String, @Nullable Object> meta) {

    /** Creates the record; {@code meta} is copied. */
    public InitializeResult {
        meta = Copies.map(meta);
    }
}
