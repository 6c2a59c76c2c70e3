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
 * @param headers  headers sent on every request, in order (values are never printed)
 * @param shownUrl the URL as it may be shown (in {@link #toString()}, statuses and messages): for a server of an
 *                 {@code mcpServers} file the {@code url} as the file wrote it, its {@code ${...}} references
 *                 unresolved (a secret that a reference put in the path never shows), else scheme, host, port and
 *                 path of {@code url}; either way without query or fragment (which may hold secrets)
 */
public record SseServerConfig(String name, URI url, Map<String, String> headers, String shownUrl) implements ServerConfig {

    /**
     * Checks and copies the values.
     *
     * @throws IllegalArgumentException if the name is not valid, the URL is neither {@code http(s)://host...} nor
     *                                  {@code unix:...}, or it carries user info ({@code user:password@})
     * @throws IllegalArgumentException if a header is one the transport would refuse: its name is not an HTTP
     *                                  token (RFC 9110 section 5.6.2), the transport sets it itself or the HTTP
     *                                  client forbids it ({@code Host}, {@code Content-Length},
     *                                  {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, ...), or its value
     *                                  holds a control or non-ASCII character (the value is never shown)
     * @throws NullPointerException     if the name, URL, headers, a header name or a header value is {@code null}
     *                                  ({@code shownUrl} may be {@code null}: then it is derived from {@code url})
     */
    public SseServerConfig {
        ServerConfig.checkName(Objects.requireNonNull(name, "name"));
        Endpoints.check(name, url);
        headers = Endpoints.headers(name, headers);
        shownUrl = shownUrl == null ? Endpoints.shown(url) : Endpoints.shown(shownUrl);
    }

    /**
     * A server at {@code url}, shown as its scheme, host, port and path.
     *
     * @param name    the server's name
     * @param url     the endpoint
     * @param headers headers sent on every request
     * @throws IllegalArgumentException as the canonical constructor
     * @throws NullPointerException     as the canonical constructor
     */
    public SseServerConfig(String name, URI url, Map<String, String> headers) {
        this(name, url, headers, null);
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
        return new SseServerConfig(name, url, more, shownUrl);
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
     *         (the URL as {@link #shownUrl()})
     */
    @Override
    public String toString() {
        return "SseServerConfig[name=" + name + ", url=" + shownUrl + ", headers=" + headers.keySet() + "]";
    }
}
