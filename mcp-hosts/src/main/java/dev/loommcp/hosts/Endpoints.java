package dev.loommcp.hosts;

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

    /** An unmodifiable copy of the headers, in order; no name or value may be {@code null}. */
    static Map<String, String> headers(Map<String, String> headers) {
        Map<String, String> copy = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers,
                "headers")));
        copy.forEach((k, v) -> {
            Objects.requireNonNull(k, "header name");
            Objects.requireNonNull(v, "header value");
        });
        return copy;
    }

    /** The URL as it may be shown: scheme, host, port and path (no user info, query or fragment). */
    static String shown(URI url) {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() >= 0 ? ":" + url.getPort() : "")
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }
}
