package dev.loommcp.auth.internal;

import dev.loommcp.internal.net.Hosts;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * URL rules of MCP authorization: canonical resource URIs (RFC 8707), the protected-resource metadata URL order (RFC
 * 9728 section 3.1), the authorization-server metadata URL order (RFC 8414 section 3.1 and OpenID Connect Discovery,
 * in the order MCP "Authorization Server Metadata Discovery" gives), the 2025-03-26 default endpoints, whether a
 * protected-resource metadata {@code resource} fits the server, client-ID metadata document URLs, and query strings.
 * Stateless.
 */
public final class Urls {

    /** The RFC 9728 well-known suffix. */
    static final String PRM_WELL_KNOWN = "/.well-known/oauth-protected-resource";
    /** The RFC 8414 well-known suffix. */
    static final String AS_WELL_KNOWN = "/.well-known/oauth-authorization-server";
    /** The OpenID Connect Discovery well-known suffix. */
    static final String OIDC_WELL_KNOWN = "/.well-known/openid-configuration";

    private Urls() {
    }

    /**
     * Checks a client-ID metadata document URL: absolute https with a path other than {@code /} (http only for
     * loopback hosts), no fragment, no user info.
     *
     * @param url the URL
     * @return {@code url}
     * @throws NullPointerException     if {@code url} is {@code null}
     * @throws IllegalArgumentException if it does not qualify (the message says why)
     */
    public static URI checkMetadataDocumentUrl(URI url) {
        Objects.requireNonNull(url, "url");
        if (!url.isAbsolute() || url.getHost() == null) {
            throw new IllegalArgumentException("the client metadata document URL must be absolute with a host");
        }
        if (!Hosts.isHttpsOrLoopbackHttp(url)) {
            throw new IllegalArgumentException("the client metadata document URL must use https (http only for "
                    + "loopback hosts)");
        }
        if (url.getRawPath() == null || url.getRawPath().isEmpty() || "/".equals(url.getRawPath())) {
            throw new IllegalArgumentException("the client metadata document URL must have a path");
        }
        if (url.getRawFragment() != null || url.getRawUserInfo() != null) {
            throw new IllegalArgumentException("the client metadata document URL must have no fragment or user info");
        }
        return url;
    }

    /**
     * Checks that a URL the OAuth client sends to, or hands to the user, is {@code https}, or {@code http} on a
     * loopback host (OAuth 2.1 section 1.5; MCP "Communication Security"): secrets, codes and tokens never travel in
     * clear text.
     *
     * @param url  the URL
     * @param what what it is, for the message (such as "the token endpoint")
     * @return {@code url}
     * @throws IllegalArgumentException if it does not qualify; the message names {@code what}, the URL (origin and
     *                                  path) and the rule
     */
    public static URI requireSecure(URI url, String what) {
        if (!Hosts.isHttpsOrLoopbackHttp(url)) {
            throw new IllegalArgumentException(what + " " + AuthHttp.describe(url) + " is refused: "
                    + Hosts.HTTPS_RULE);
        }
        return url;
    }

    /**
     * The canonical URI of an MCP server as a protected resource (RFC 8707 section 2, MCP "Canonical Server URI"):
     * scheme and host in lower case, the default port dropped, no fragment; path and query kept as they are.
     *
     * @param endpoint the MCP endpoint
     * @return the canonical form, as a string (what tokens are stored under)
     * @throws IllegalArgumentException if it is not an absolute http(s) URI with a host
     */
    public static String canonicalResource(URI endpoint) {
        String scheme = endpoint.getScheme() == null ? null : endpoint.getScheme().toLowerCase(Locale.ROOT);
        if (!("http".equals(scheme) || "https".equals(scheme)) || endpoint.getHost() == null) {
            throw new IllegalArgumentException("the MCP endpoint is not an absolute http(s) URI with a host");
        }
        StringBuilder sb = new StringBuilder(origin(endpoint));
        String path = endpoint.getRawPath();
        if (path != null) {
            sb.append(path);
        }
        if (endpoint.getRawQuery() != null) {
            sb.append('?').append(endpoint.getRawQuery());
        }
        return sb.toString();
    }

    /**
     * The origin of a URI: {@code scheme://host[:port]} in lower case, without the default port and without a
     * trailing slash (the 2025-03-26 authorization base URL and fallback issuer).
     *
     * @param uri an absolute URI
     * @return the origin
     */
    public static String origin(URI uri) {
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        int port = uri.getPort();
        boolean defaultPort = port < 0 || ("http".equals(scheme) && port == 80) || ("https".equals(scheme)
                && port == 443);
        return scheme + "://" + host + (defaultPort ? "" : ":" + port);
    }

    /** The path of a URI without trailing slashes ({@code ""} for none or {@code /}). */
    static String trimmedPath(URI uri) {
        String p = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    /**
     * The protected-resource metadata URLs to try, in order (RFC 9728 section 3.1, MCP "Protected Resource Metadata
     * Discovery"): the challenge's {@code resource_metadata} when given, then the path-based well-known URL (when the
     * endpoint has a path), then the root one; duplicates left out.
     *
     * @param endpoint         the MCP endpoint
     * @param resourceMetadata the challenge's {@code resource_metadata} URL, or {@code null}
     * @return the URLs, at least one
     */
    public static List<URI> protectedResourceMetadataUrls(URI endpoint, URI resourceMetadata) {
        List<URI> out = new ArrayList<>();
        if (resourceMetadata != null) {
            out.add(resourceMetadata);
        }
        String origin = origin(endpoint);
        String path = trimmedPath(endpoint);
        if (!path.isEmpty()) {
            addOnce(out, URI.create(origin + PRM_WELL_KNOWN + path));
        }
        addOnce(out, URI.create(origin + PRM_WELL_KNOWN));
        return out;
    }

    /**
     * The authorization-server metadata URLs to try for an issuer, in order. With a path {@code /p}:
     * {@code /.well-known/oauth-authorization-server/p}, {@code /.well-known/openid-configuration/p},
     * {@code /p/.well-known/openid-configuration}; without: {@code /.well-known/oauth-authorization-server},
     * {@code /.well-known/openid-configuration}.
     *
     * @param issuer the issuer identifier
     * @return the URLs
     * @throws IllegalArgumentException if the issuer is not an absolute http(s) URI with a host
     */
    public static List<URI> authorizationServerMetadataUrls(URI issuer) {
        if (!issuer.isAbsolute() || issuer.getHost() == null) {
            throw new IllegalArgumentException("the issuer is not an absolute URI with a host");
        }
        String origin = origin(issuer);
        String path = trimmedPath(issuer);
        if (path.isEmpty()) {
            return List.of(URI.create(origin + AS_WELL_KNOWN), URI.create(origin + OIDC_WELL_KNOWN));
        }
        return List.of(URI.create(origin + AS_WELL_KNOWN + path), URI.create(origin + OIDC_WELL_KNOWN + path),
                URI.create(origin + path + OIDC_WELL_KNOWN));
    }

    /**
     * Whether the {@code resource} of protected-resource metadata names this server (RFC 9728 section 3.3, RFC 8707):
     * the same origin (compared without case and default port) and a path that is the server's path exactly or a
     * segment-wise prefix of it (a resource identifier for the whole origin, or for a path above the endpoint,
     * covers the endpoints below it: the document at the root well-known URL names the origin). A path the endpoint
     * does not start with is refused, {@code /mcp/} for {@code /mcp} included: RFC 9728 section 3.3 requires the
     * identifier the document was looked up for, and MCP's canonical server URI tells {@code /mcp} and {@code /mcp/}
     * apart.
     *
     * @param resource the metadata's {@code resource}
     * @param endpoint the MCP endpoint
     * @return whether it fits
     */
    public static boolean resourceMatches(String resource, URI endpoint) {
        URI r;
        try {
            r = new URI(resource);
        } catch (URISyntaxException e) {
            return false;
        }
        if (!r.isAbsolute() || r.getHost() == null || r.getRawFragment() != null) {
            return false;
        }
        String rs = r.getScheme().toLowerCase(Locale.ROOT);
        if (!("http".equals(rs) || "https".equals(rs))) {
            return false;
        }
        if (!origin(r).equals(origin(endpoint))) {
            return false;
        }
        String rp = r.getRawPath() == null || r.getRawPath().isEmpty() ? "/" : r.getRawPath();
        String ep = endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() ? "/" : endpoint.getRawPath();
        return ep.equals(rp) || ep.startsWith(rp.endsWith("/") ? rp : rp + "/");
    }

    /**
     * Appends query parameters to a URI (after any query it has), each name and value form-encoded.
     *
     * @param base   the URI
     * @param params the parameters in order ({@code null} values left out)
     * @return the new URI
     */
    public static URI withQuery(URI base, Map<String, String> params) {
        String s = base.toString();
        int hash = s.indexOf('#');
        if (hash >= 0) {
            s = s.substring(0, hash);
        }
        String q = AuthHttp.formBody(params);
        if (q.isEmpty()) {
            return URI.create(s);
        }
        return URI.create(s + (base.getRawQuery() == null ? "?" : "&") + q);
    }

    /**
     * The query parameters of a URI (form-decoded; the first of a repeated name wins).
     *
     * @param uri the URI
     * @return name to value, in order
     */
    public static Map<String, String> queryParameters(URI uri) {
        Map<String, String> out = new LinkedHashMap<>();
        String q = uri.getRawQuery();
        if (q == null || q.isEmpty()) {
            return out;
        }
        for (String part : q.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = decode(eq < 0 ? part : part.substring(0, eq));
            String value = eq < 0 ? "" : decode(part.substring(eq + 1));
            out.putIfAbsent(name, value);
        }
        return out;
    }

    private static String decode(String s) {
        try {
            return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    /**
     * Resolves a URL a server sent (metadata or a challenge) and checks it is absolute http(s) and
     * {@linkplain #requireSecure secure}.
     *
     * @param value the value
     * @param what  what it is, for the message
     * @return the URI
     * @throws IllegalArgumentException if it is not an absolute http(s) URI, or plain http on a host that is not
     *                                  loopback (the message names {@code what} and the rule)
     */
    static URI httpUrl(String value, String what) {
        URI u;
        try {
            u = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(what + " is not a valid URI");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!u.isAbsolute() || u.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
            throw new IllegalArgumentException(what + " is not an absolute http(s) URI");
        }
        return requireSecure(u, what);
    }

    private static void addOnce(List<URI> list, URI u) {
        if (!list.contains(u)) {
            list.add(u);
        }
    }
}
