package dev.loommcp.internal.session;

import dev.loommcp.McpProtocolException;
import dev.loommcp.intercept.McpResponse;

import java.util.Map;

/**
 * The server's answer to an intercepted request: the raw result as the wire path returned it (which may be something
 * other than a JSON object; the caller's own check reports that, as without interceptors). Immutable.
 *
 * @param method the request's method, for messages
 * @param raw    the raw result
 */
record ServerResponse(String method, Object raw) implements McpResponse {

    /** The raw result of any response: this one's as it came, another's {@link #result()}. */
    static Object rawOf(McpResponse response) {
        return response instanceof ServerResponse s ? s.raw : response.result();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Map<String, Object> result() {
        if (raw instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new McpProtocolException("the result of " + method + " is not a JSON object");
    }

    @Override
    public boolean fromServer() {
        return true;
    }

    @Override
    public boolean isToolError() {
        return raw instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get("isError"));
    }

    /** Says where it came from; never the result. */
    @Override
    public String toString() {
        return "McpResponse[from the server" + (isToolError() ? ", isError" : "") + "]";
    }
}
