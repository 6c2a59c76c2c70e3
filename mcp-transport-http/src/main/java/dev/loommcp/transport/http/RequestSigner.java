package dev.loommcp.transport.http;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Signs the HTTP requests of an {@link HttpTransport}: called for every request the transport makes (each POST, the
 * GET stream and its reconnections, resumption GETs, the closing DELETE, and every hop of a followed redirect), just
 * before it is sent, and returns headers to add to it. This is the hook for per-request signatures such as HTTP
 * Message Signatures (RFC 9421) or AAuth (the Rust seed's {@code RequestSigner}).
 *
 * <p>Implementations must be thread-safe: requests are signed concurrently from many virtual threads. They should
 * return quickly; they run on the thread sending the request. The transport never logs what they return.
 *
 * <p>If the signer throws, the request is not sent and the transport fails the operation with an
 * {@link dev.loommcp.McpTransportException} whose cause is the signer's exception.
 */
@FunctionalInterface
public interface RequestSigner {

    /**
     * Computes the headers to add to one request.
     *
     * @param method  the HTTP method: {@code POST}, {@code GET} or {@code DELETE}
     * @param uri     the exact URI the request goes to (the endpoint, or a same-origin redirect target)
     * @param headers the headers the request will carry, names as sent, read-only; names compare without case
     * @param body    the body bytes (a copy, empty for GET and DELETE)
     * @return headers to add (name to value), not {@code null}; names the transport owns ({@code Accept},
     *         {@code Content-Type}, {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, {@code Last-Event-ID})
     *         and names the JDK restricts ({@code Host}, {@code Content-Length}, ...) are rejected
     */
    Map<String, String> sign(String method, URI uri, Map<String, List<String>> headers, byte[] body);
}
