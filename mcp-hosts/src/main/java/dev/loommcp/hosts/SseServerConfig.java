package dev.loommcp.hosts;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.SseTransport;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A server reached over the HTTP+SSE transport of protocol 2024-11-05 ({@code GET /sse} with its {@code endpoint}
 * event, {@code POST /messages}): the {@code "type": "sse"} entry of an {@code mcpServers} file (Cursor, VS Code and
 * Claude Desktop's remote servers). The transport is {@link SseTransport}; see docs/transports.md. (A
 * {@link HttpServerConfig} falls back to the same transport by itself when its Streamable HTTP {@code initialize} is
 * refused and the URL offers an SSE stream; {@code type: "sse"} goes there directly.)
 *
 * @param name    the server's name in the registry (see {@link ServerConfig#name()})
 * @param url     the SSE URL the server's documentation names (typically ending in {@code /sse}), {@code http} or
 *                {@code https} with a host and without user info, or {@code unix:}
 * @param headers headers sent on every request, in order (values are never printed)
 */
public record SseServerConfig(String name, URI url, Map<String, String> headers) implements ServerConfig {

    /**
     * Checks and copies the values.
     *
     * @throws IllegalArgumentException if the name is not valid, the URL is neither {@code http(s)://host...} nor
     *                                  {@code unix:...}, or it carries user info ({@code user:password@})
     * @throws NullPointerException     if a value, a header name or a header value is {@code null}
     */
    public SseServerConfig {
        ServerConfig.checkName(Objects.requireNonNull(name, "name"));
        Endpoints.check(name, url);
        headers = Endpoints.headers(headers);
    }

    /**
     * A server at the given SSE URL, without extra headers.
     *
     * @param name the server's name
     * @param url  the SSE URL
     * @return the configuration
     * @throws IllegalArgumentException if the name or URL is not valid
     */
    public static SseServerConfig of(String name, URI url) {
        return new SseServerConfig(name, url, Map.of());
    }

    /**
     * Returns this configuration with one more header.
     *
     * @param header the header name
     * @param value  the value (never printed)
     * @return a new configuration
     */
    public SseServerConfig withHeader(String header, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(header, value);
        return new SseServerConfig(name, url, more);
    }

    /**
     * Returns {@code "sse"}.
     *
     * @return {@code "sse"}
     */
    @Override
    public String transport() {
        return "sse";
    }

    /**
     * Builds an HTTP+SSE transport to the SSE URL with the headers.
     *
     * @return the transport, not started
     * @throws IllegalArgumentException if the transport refuses a header (by name, never its value), prefixed with
     *                                  the server's name
     */
    @Override
    public McpTransport newTransport() {
        try {
            SseTransport.Builder b = SseTransport.newBuilder(url);
            headers.forEach(b::header);
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("server '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * Describes the configuration without the headers' values.
     *
     * @return for example {@code SseServerConfig[name=api, url=https://example.com/sse, headers=[Authorization]]}
     *         (the URL without user info, query or fragment)
     */
    @Override
    public String toString() {
        return "SseServerConfig[name=" + name + ", url=" + Endpoints.shown(url) + ", headers=" + headers.keySet()
                + "]";
    }
}
