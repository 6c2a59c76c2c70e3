package dev.loommcp.hosts;

import dev.loommcp.transport.http.HeaderRules;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** What {@link HttpServerConfig} and {@link SseServerConfig} check and show of their URL and headers. */
final class Endpoints {

    private Endpoints() {
    }

    /**
     * Checks an endpoint: {@code http(s)://host...} without user info, or {@code unix:...}.
     *
     * @throws IllegalArgumentException naming the server and what is wrong (never the URL: it may hold secrets)
     */
    static void check(String name, URI url) {
        Objects.requireNonNull(url, "url");
        String scheme = url.getScheme();
        boolean unix = "unix".equalsIgnoreCase(scheme);
        if (scheme == null || !(unix || scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                || (!unix && url.getHost() == null)) {
            throw new IllegalArgumentException("server '" + name + "': url must be an http:// or https:// URL with "
                    + "a host, or a unix: socket endpoint");
        }
        if (url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("server '" + name + "': url must not carry user info "
                    + "(user:password@); send credentials in a header (Authorization) instead");
        }
    }

    /**
     * An unmodifiable copy of the headers, in order, each checked by {@link #headerProblem}.
     *
     * @throws NullPointerException     if a name or value is {@code null}
     * @throws IllegalArgumentException naming the server and the header (never its value) when one is not acceptable
     */
    static Map<String, String> headers(String server, Map<String, String> headers) {
        Map<String, String> copy = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers,
                "headers")));
        copy.forEach((k, v) -> {
            Objects.requireNonNull(k, "header name");
            Objects.requireNonNull(v, "header value");
            String problem = headerProblem(k, v);
            if (problem != null) {
                throw new IllegalArgumentException("server '" + server + "': header "
                        + McpServersFile.printable(k) + ": " + problem);
            }
        });
        return copy;
    }

    /**
     * Why the HTTP transports would refuse a header, by the transport's own rules ({@link HeaderRules}), or
     * {@code null}: a name that is not an HTTP token (RFC 9110 section 5.6.2), a header the transport sets itself
     * or the HTTP client forbids ({@code Host}, {@code Content-Length}, {@code Mcp-Session-Id},
     * {@code MCP-Protocol-Version}, ...), a value with a control or non-ASCII character (a CR/LF would split the
     * header). Never quotes the value.
     */
    static String headerProblem(String name, String value) {
        if (!HeaderRules.isToken(name)) {
            return "not a valid header name (an HTTP token: letters, digits and !#$%&'*+-.^_`|~)";
        }
        if (HeaderRules.isReserved(name)) {
            return "a header the HTTP transport sets itself or the HTTP client does not allow";
        }
        if (!HeaderRules.isValidValue(value)) {
            return "the value holds a control character (a line break, say) or a non-ASCII character, which cannot "
                    + "be sent (the value is not shown)";
        }
        return null;
    }

    /**
     * A URL as written (references unresolved) as it may be shown: without query or fragment, control characters
     * replaced.
     */
    static String shown(String written) {
        int end = written.length();
        for (char c : new char[] {'?', '#'}) {
            int at = written.indexOf(c);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return written.substring(0, end).replaceAll("\\p{Cntrl}", "?");
    }

    /** The URL as it may be shown: scheme, host, port and path (no user info, query or fragment). */
    static String shown(URI url) {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "")
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }
}
