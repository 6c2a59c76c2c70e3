package dev.loommcp;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;
import java.util.List;

/**
 * The server refused the request's protocol version with {@code -32022} (UnsupportedProtocolVersion, MCP 2026-07-28
 * "Versioning: protocol version negotiation") and the client found no version in {@code data.supported} that it
 * speaks too (when it finds one it retries once with it and this exception is not thrown).
 */
public final class McpUnsupportedVersionException extends McpRpcException {

    /**
     * Creates the exception.
     *
     * @param method    the method of the refused request
     * @param requestId its id, or {@code null}
     * @param error     the error the server sent
     */
    public McpUnsupportedVersionException(String method, RequestId requestId, JsonRpcError error) {
        super(method, requestId, error);
    }

    /**
     * Returns the versions the server supports, from {@code data.supported}.
     *
     * @return the versions, empty when the server did not list them
     */
    public List<String> supportedVersions() {
        if (data() instanceof java.util.Map<?, ?> d && d.get("supported") instanceof List<?> l) {
            return l.stream().filter(String.class::isInstance).map(String.class::cast).toList();
        }
        return List.of();
    }
}
