package dev.loommcp;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;
import java.util.Map;

/**
 * The server refused a request with {@code -32021} (MissingRequiredClientCapability, MCP 2026-07-28 "Per-request
 * protocol fields"): it needs a client capability the request did not declare, for example
 * {@code {"elicitation":{"form":{}}}} for a tool that asks the user, because no elicitation handler is set on the
 * client. The client declares on each request exactly what it can do, so it does not retry: register the handler the
 * capability names.
 */
public final class McpMissingCapabilityException extends McpRpcException {

    /**
     * Creates the exception.
     *
     * @param method    the method of the refused request
     * @param requestId its id, or {@code null}
     * @param error     the error the server sent
     */
    public McpMissingCapabilityException(String method, RequestId requestId, JsonRpcError error) {
        super(method, requestId, error);
    }

    /**
     * Returns the capabilities the server requires, from {@code data.requiredCapabilities}, as plain JSON.
     *
     * @return the capabilities, empty when the server did not name them
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> requiredCapabilities() {
        return data() instanceof Map<?, ?> d && d.get("requiredCapabilities") instanceof Map<?, ?> m
                ? (Map<String, Object>) m : Map.of();
    }
}
