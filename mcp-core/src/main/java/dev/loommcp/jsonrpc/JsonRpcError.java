package dev.loommcp.jsonrpc;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The {@code error} member of a JSON-RPC error response (JSON-RPC 2.0 section 5.1).
 *
 * <p>The well-known codes are constants here; MCP adds its own (see the MCP spec, "Error codes").
 *
 * @param code    the error code
 * @param message the short description, never {@code null}
 * @param data    optional additional information as a plain JSON value ({@code Map}, {@code List}, {@code String},
 *                {@code Number}, {@code Boolean}) or {@code null}
 */
public record JsonRpcError(int code, String message, @Nullable Object data) {

    /** Invalid JSON was received ({@value}). */
    public static final int PARSE_ERROR = -32700;
    /** The JSON sent is not a valid request object ({@value}). */
    public static final int INVALID_REQUEST = -32600;
    /** The method does not exist or is not available ({@value}). */
    public static final int METHOD_NOT_FOUND = -32601;
    /** Invalid method parameters ({@value}). */
    public static final int INVALID_PARAMS = -32602;
    /** Internal JSON-RPC error ({@value}). */
    public static final int INTERNAL_ERROR = -32603;
    /** MCP 2025-11-25 and earlier: resource not found ({@value}). */
    public static final int RESOURCE_NOT_FOUND = -32002;
    /** MCP 2025-11-25: URL-mode elicitation required ({@value}). */
    public static final int URL_ELICITATION_REQUIRED = -32042;
    /**
     * MCP 2026-07-28 "Per-request protocol fields": MissingRequiredClientCapability ({@value}), the request needs a
     * client capability it did not declare; {@code data.requiredCapabilities} names it.
     */
    public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    /**
     * MCP 2026-07-28 "Versioning": UnsupportedProtocolVersion ({@value}), the server does not speak the request's
     * protocol version; {@code data.supported} lists the versions it does.
     */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    /**
     * Creates the error.
     *
     * @throws NullPointerException if {@code message} is {@code null}
     */
    public JsonRpcError {
        Objects.requireNonNull(message, "message");
    }

    /**
     * Returns an error without data.
     *
     * @param code    the code
     * @param message the message
     * @return the error
     */
    public static JsonRpcError of(int code, String message) {
        return new JsonRpcError(code, message, null);
    }
}
