package dev.loommcp;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.RequestId;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The server answered a request with a JSON-RPC error (JSON-RPC 2.0 section 5.1). The call reached the server and
 * the server refused or failed it; the client stays usable. {@link #code()} tells the kind; two codes of the modern
 * era (MCP 2026-07-28) have their {@code data} read here:
 * <ul>
 *   <li>{@link JsonRpcError#MISSING_REQUIRED_CLIENT_CAPABILITY} ({@code -32021}): the server needs a client
 *       capability the request did not declare, for example {@code {"elicitation":{"form":{}}}} for a tool that asks
 *       the user, because no elicitation handler is set on the client. The client declares on each request exactly
 *       what it can do, so it does not retry: register the handler {@link #requiredCapabilities()} names.</li>
 *   <li>{@link JsonRpcError#UNSUPPORTED_PROTOCOL_VERSION} ({@code -32022}): the server refused the request's
 *       protocol version and the client found no version in {@link #supportedVersions()} that it speaks too (when it
 *       finds one it retries once with it and this exception is not thrown).</li>
 * </ul>
 *
 * <p>Not sealed: an extension module gives the errors of its own requests their own subclass (the {@code mcp-tasks}
 * module's task exceptions, for example), as transports subclass {@link McpTransportException}; the core itself has
 * no subclass of it.
 */
public non-sealed class McpRpcException extends McpException {

    private final transient JsonRpcError error;
    /** The method of the failed request (serialized with the exception; the error and id are not). */
    private final String method;
    private final transient @Nullable RequestId requestId;

    /**
     * Creates the exception.
     *
     * @param method    the method of the failed request
     * @param requestId the id of the failed request, or {@code null}
     * @param error     the error the server sent
     */
    public McpRpcException(String method, @Nullable RequestId requestId, JsonRpcError error) {
        this(method + " (id " + requestId + ") failed with JSON-RPC error " + error.code() + ": "
                + shortened(error.message()), method, requestId, error);
    }

    /**
     * Creates the exception with a message of the subclass's own (for example one that names a task).
     *
     * @param message   the whole exception message
     * @param method    the method of the failed request
     * @param requestId the id of the failed request, or {@code null}
     * @param error     the error the server sent
     */
    protected McpRpcException(String message, String method, @Nullable RequestId requestId,
                              JsonRpcError error) {
        super(message, null);
        this.error = error;
        this.method = method;
        this.requestId = requestId;
    }

    /**
     * The most characters of the server's message the exception message repeats, with its control characters
     * escaped; {@link #errorMessage()} has all, as sent.
     */
    static final int MAX_MESSAGE_CHARS = 2_000;

    /**
     * Returns the server's message as an exception message repeats it: control characters escaped, at most 2,000
     * characters, then how many more there were. For subclasses that build their own message.
     *
     * @param message the server's error message
     * @return the message to show
     */
    protected static String shortened(String message) {
        // the server's text: control characters escaped (a line break or NUL never reaches a log line as such)
        String shown = dev.loommcp.internal.json.Shown.text(message.substring(0, Math.min(message.length(),
                MAX_MESSAGE_CHARS)), MAX_MESSAGE_CHARS);
        return message.length() <= MAX_MESSAGE_CHARS ? shown
                : shown + "... (" + (message.length() - MAX_MESSAGE_CHARS) + " more characters)";
    }

    /**
     * Returns the error code, for example {@link JsonRpcError#METHOD_NOT_FOUND}.
     *
     * @return the code
     */
    public int code() {
        return error.code();
    }

    /**
     * Returns the server's error message, whole (the exception's own message repeats at most 2,000 characters of
     * it).
     *
     * @return the message, never {@code null}
     */
    public String errorMessage() {
        return error.message();
    }

    /**
     * Returns the error's {@code data} as a plain JSON value.
     *
     * @return the data, or {@code null}
     */
    public @Nullable Object data() {
        return error.data();
    }

    /**
     * Returns the whole error.
     *
     * @return the error
     */
    public JsonRpcError error() {
        return error;
    }

    /**
     * Returns the capabilities the server requires, from {@code data.requiredCapabilities} of a
     * {@link JsonRpcError#MISSING_REQUIRED_CLIENT_CAPABILITY} error, as plain JSON.
     *
     * @return the capabilities; empty for any other error, or when the server did not name them
     */
    @SuppressWarnings("unchecked")
    public Map<String, @Nullable Object> requiredCapabilities() {
        return code() == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY && data() instanceof Map<?, ?> d
                && d.get("requiredCapabilities") instanceof Map<?, ?> m ? (Map<String, @Nullable Object>) m
                : Map.of();
    }

    /**
     * Returns the protocol versions the server supports, from {@code data.supported} of a
     * {@link JsonRpcError#UNSUPPORTED_PROTOCOL_VERSION} error.
     *
     * @return the versions; empty for any other error, or when the server did not list them
     */
    public List<String> supportedVersions() {
        if (code() == JsonRpcError.UNSUPPORTED_PROTOCOL_VERSION && data() instanceof Map<?, ?> d
                && d.get("supported") instanceof List<?> l) {
            return l.stream().filter(String.class::isInstance).map(String.class::cast).toList();
        }
        return List.of();
    }

    /**
     * Returns the method of the failed request.
     *
     * @return the method
     */
    public String method() {
        return method;
    }

    /**
     * Returns the id of the failed request.
     *
     * @return the id, or empty when unknown
     */
    public java.util.Optional<RequestId> requestId() {
        return java.util.Optional.ofNullable(requestId);
    }
}
