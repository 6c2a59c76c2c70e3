package dev.loommcp.transport.unix;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * A parsed {@code unix:} endpoint: the socket file and the HTTP request target. See {@link UnixConnector} for the
 * syntax. Immutable.
 *
 * @param socket     the socket file, absolute
 * @param requestUri the URI requests carry: {@code http://localhost<path>[?query]}
 */
record UnixEndpoint(Path socket, URI requestUri) {

    /** The host requests name in their {@code Host} header. */
    static final String HOST = "localhost";

    /**
     * Parses an endpoint.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static UnixEndpoint parse(URI endpoint) {
        if (!"unix".equalsIgnoreCase(endpoint.getScheme())) {
            throw new IllegalArgumentException("not a unix: endpoint");
        }
        if (endpoint.isOpaque()) {
            throw new IllegalArgumentException("a unix: endpoint needs an absolute socket path, as in "
                    + "unix:/run/app.sock or unix:/run/app.sock:/mcp");
        }
        if (endpoint.getRawAuthority() != null) {
            throw new IllegalArgumentException("a unix: endpoint has no host: write unix:/path/to.sock[:/http-path]");
        }
        if (endpoint.getRawFragment() != null) {
            throw new IllegalArgumentException("a unix: endpoint must not have a fragment (#...)");
        }
        String raw = endpoint.getRawPath();
        if (raw == null || raw.isEmpty() || raw.charAt(0) != '/') {
            throw new IllegalArgumentException("a unix: endpoint needs an absolute socket path");
        }
        int colon = raw.indexOf(':');
        String rawSocket = colon < 0 ? raw : raw.substring(0, colon);
        String rawHttpPath = colon < 0 ? "/" : raw.substring(colon + 1);
        if (rawSocket.equals("/") || rawSocket.endsWith("/")) {
            throw new IllegalArgumentException("a unix: endpoint's socket path must name a file, not a directory");
        }
        if (rawHttpPath.isEmpty() || rawHttpPath.charAt(0) != '/') {
            throw new IllegalArgumentException("the HTTP path after the socket path must start with '/', as in "
                    + "unix:/run/app.sock:/mcp");
        }
        Path socket;
        try {
            socket = Path.of(decode(rawSocket));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("a unix: endpoint's socket path is not a valid path: "
                    + e.getReason(), e);
        }
        URI requestUri;
        try {
            requestUri = new URI("http://" + HOST + rawHttpPath
                    + (endpoint.getRawQuery() != null ? "?" + endpoint.getRawQuery() : ""));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("a unix: endpoint's HTTP path is not valid: " + e.getReason(), e);
        }
        return new UnixEndpoint(socket, requestUri);
    }

    /** Percent-decodes a path segment (UTF-8), as {@link URI#getPath()} would for the whole path. */
    private static String decode(String raw) {
        return URI.create("unix:" + raw).getPath();
    }

    /** How the transport names the endpoint in logs and messages: {@code unix:<socket path>}. */
    String origin() {
        return "unix:" + socket;
    }
}
