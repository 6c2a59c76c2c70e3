/**
 * The Streamable HTTP transport of MCP (2025-03-26 .. 2025-11-25, and the stateless 2026-07-28):
 * {@link dev.loommcp.transport.http.HttpTransport}
 * and its builder; the HTTP+SSE transport of 2024-11-05, {@link dev.loommcp.transport.http.SseTransport}, which
 * {@code HttpTransport} also falls back to for a server that offers only that one; the {@link dev.loommcp.transport.http.RequestSigner} hook,
 * {@link dev.loommcp.transport.http.McpHttpStatusException} with its
 * {@link dev.loommcp.transport.http.AuthChallenge}s, and the {@link dev.loommcp.transport.http.HeaderRules} that
 * caller headers follow. Built on {@code java.net.http.HttpClient}; endpoints of another scheme (such as
 * {@code unix:}) are carried by an {@link dev.loommcp.transport.http.HttpConnector} found with the service loader.
 */
package dev.loommcp.transport.http;
