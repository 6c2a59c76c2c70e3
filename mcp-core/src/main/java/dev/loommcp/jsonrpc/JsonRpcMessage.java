package dev.loommcp.jsonrpc;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One JSON-RPC 2.0 message as MCP uses it: a request, a notification, a successful response or an error response.
 *
 * <p>Parameters and results are plain JSON values: {@code Map<String,Object>} for objects, {@code List<Object>} for
 * arrays, {@code String}, {@code Number} ({@code Long}, {@code Integer}, {@code Double} or {@code BigInteger}/
 * {@code BigDecimal} for large values), {@code Boolean}, or {@code null}. The maps and lists are treated as
 * read-only once a message is built; do not change them after handing a message to the SDK.
 *
 * <p>Instances are immutable (given the rule above) and thread-safe.
 */
public sealed interface JsonRpcMessage
        permits JsonRpcMessage.Request, JsonRpcMessage.Notification, JsonRpcMessage.Response,
                JsonRpcMessage.ErrorResponse {

    /**
     * A request: expects exactly one response with the same id.
     *
     * @param id     the id, not {@code null}
     * @param method the method name, not {@code null}
     * @param params the parameters object, or {@code null} when absent
     */
    record Request(RequestId id, String method,
                   @Nullable Map<String, @Nullable Object> params) implements JsonRpcMessage {
        /**
         * Creates the request.
         *
         * @throws NullPointerException if {@code id} or {@code method} is {@code null}
         */
        public Request {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(method, "method");
        }
    }

    /**
     * A notification: a message without id that gets no response.
     *
     * @param method the method name, not {@code null}
     * @param params the parameters object, or {@code null} when absent
     */
    record Notification(String method, @Nullable Map<String, @Nullable Object> params) implements JsonRpcMessage {
        /**
         * Creates the notification.
         *
         * @throws NullPointerException if {@code method} is {@code null}
         */
        public Notification {
            Objects.requireNonNull(method, "method");
        }
    }

    /**
     * A successful response.
     *
     * @param id     the id of the request it answers, not {@code null}
     * @param result the result: a plain JSON value, in MCP always an object ({@code Map}); {@code null} for JSON
     *               {@code null}
     */
    record Response(RequestId id, @Nullable Object result) implements JsonRpcMessage {
        /**
         * Creates the response.
         *
         * @throws NullPointerException if {@code id} is {@code null}
         */
        public Response {
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * An error response.
     *
     * @param id    the id of the request it answers, or {@code null} when the request could not be read
     * @param error the error, not {@code null}
     */
    record ErrorResponse(@Nullable RequestId id, JsonRpcError error) implements JsonRpcMessage {
        /**
         * Creates the error response.
         *
         * @throws NullPointerException if {@code error} is {@code null}
         */
        public ErrorResponse {
            Objects.requireNonNull(error, "error");
        }
    }
}
