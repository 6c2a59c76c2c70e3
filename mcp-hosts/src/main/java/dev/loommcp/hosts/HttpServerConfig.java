package dev.loommcp.hosts;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.http.HttpTransport;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A server reached over Streamable HTTP: the {@code url}/{@code headers} entry of an {@code mcpServers} file.
 *
 * @param name    the server's name in the registry (see {@link ServerConfig#name()})
 * @param url     the MCP endpoint, an {@code http} or {@code https} URL with a host and without user info
 * @param headers  headers sent on every request, in order (values are never printed)
 * @param shownUrl the URL as it may be shown (in {@link #toString()}, statuses and messages): for a server of an
 *                 {@code mcpServers} file the {@code url} as the file wrote it, its {@code ${...}} references
 *                 unresolved (a secret that a reference put in the path never shows), else scheme, host, port and
 *                 path of {@code url}; either way without query or fragment (which may hold secrets)
 */
public record HttpServerConfig(String name, URI url, Map<String, String> headers, String shownUrl) implements ServerConfig {

    /**
     * Checks and copies the values.
     *
     * @throws IllegalArgumentException if the name is not valid, the URL is neither {@code http(s)://host...} nor
     *                                  {@code unix:...} (a unix-socket endpoint, which needs the module
     *                                  {@code dev.loommcp.transport.unix} when the server starts), or it carries
     *                                  user info ({@code user:password@}: credentials go in a header)
     * @throws IllegalArgumentException if a header is one the transport would refuse: its name is not an HTTP
     *                                  token (RFC 9110 section 5.6.2), the transport sets it itself or the HTTP
     *                                  client forbids it ({@code Host}, {@code Content-Length},
     *                                  {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, ...), or its value
     *                                  holds a control or non-ASCII character (the value is never shown)
     * @throws NullPointerException     if the name, URL, headers, a header name or a header value is {@code null}
     *                                  ({@code shownUrl} may be {@code null}: then it is derived from {@code url})
     */
    public HttpServerConfig {
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
    public HttpServerConfig(String name, URI url, Map<String, String> headers) {
        this(name, url, headers, null);
    }

    /**
     * A server at the given endpoint, without extra headers.
     *
     * @param name the server's name
     * @param url  the endpoint
     * @return the configuration
     * @throws IllegalArgumentException if the name or URL is not valid
     */
    public static HttpServerConfig of(String name, URI url) {
        return new HttpServerConfig(name, url, Map.of());
    }

    /**
     * Returns this configuration with one more header.
     *
     * @param header the header name
     * @param value  the value (never printed)
     * @return a new configuration
     */
    public HttpServerConfig withHeader(String header, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(header, value);
        return new HttpServerConfig(name, url, more, shownUrl);
    }

    /**
     * Returns {@code "http"}.
     *
     * @return {@code "http"}
     */
    @Override
    public String transport() {
        return "http";
    }

    /**
     * Builds a Streamable HTTP transport to the endpoint with the headers.
     *
     * @return the transport, not started
     * @throws IllegalArgumentException if the transport refuses a header (by name, never its value), prefixed with
     *                                  the server's name
     */
    @Override
    public McpTransport newTransport() {
        HttpTransport.Builder b = newTransportBuilder();
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw named(e);
        }
    }

    /**
     * Returns a Streamable HTTP transport builder set up from this configuration (the endpoint and the headers),
     * for a caller that sets more before building: an authorization provider, TLS, timeouts. The registry builds
     * its transports so and hands each builder to {@link McpServers.Builder#httpCustomizer} first.
     *
     * @return a new builder
     * @throws IllegalArgumentException if the transport refuses a header (by name, never its value), prefixed with
     *                                  the server's name
     */
    public HttpTransport.Builder newTransportBuilder() {
        try {
            HttpTransport.Builder b = HttpTransport.newBuilder(url);
            headers.forEach(b::header);
            return b;
        } catch (IllegalArgumentException e) {
            throw named(e);
        }
    }

    private IllegalArgumentException named(IllegalArgumentException e) {
        return new IllegalArgumentException("server '" + name + "': " + e.getMessage(), e);
    }

    /**
     * Describes the configuration without the headers' values.
     *
     * @return for example {@code HttpServerConfig[name=api, url=https://example.com/mcp, headers=[Authorization]]}
     *         (the URL as {@link #shownUrl()})
     */
    @Override
    public String toString() {
        return "HttpServerConfig[name=" + name + ", url=" + shownUrl + ", headers=" + headers.keySet() + "]";
    }
}
