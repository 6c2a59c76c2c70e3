package dev.loommcp.internal.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Which URLs may carry secrets or reach a user in clear text: {@code https}, or plain {@code http} only on a loopback
 * host (the rule of OAuth 2.1 section 1.5 and RFC 8252 section 8.3, which MCP authorization and URL-mode elicitation
 * follow). A loopback host is the name {@code localhost}, an IPv4 literal in {@code 127.0.0.0/8} or the IPv6 literal
 * {@code ::1}; it is decided from the text alone, never through a name service. Stateless.
 */
public final class Hosts {

    /** The rule, for messages: {@value}. */
    public static final String HTTPS_RULE = "https is required (plain http only on a loopback host: 127.0.0.0/8, ::1, "
            + "localhost)";

    private Hosts() {
    }

    /**
     * Returns whether a URI is {@code https}, or {@code http} on a {@linkplain #isLoopback loopback host}.
     *
     * @param uri the URI
     * @return whether it qualifies; {@code false} for any other scheme or a URI without a host
     */
    public static boolean isHttpsOrLoopbackHttp(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null) {
            return false;
        }
        return "https".equals(scheme) || ("http".equals(scheme) && isLoopback(uri.getHost()));
    }

    /**
     * Returns whether a host (as {@link URI#getHost()} gives it: IPv6 literals in brackets) is a loopback host: the
     * name {@code localhost} (a trailing dot allowed), an IPv4 literal in {@code 127.0.0.0/8} in dotted-decimal form,
     * or an IPv6 literal of {@code ::1} (an IPv4-mapped {@code 127.x.y.z} too). Names that merely start with
     * {@code 127.} are not.
     *
     * @param host the host, or {@code null}
     * @return whether it is a loopback host
     */
    public static boolean isLoopback(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if ("localhost".equals(h) || "localhost.".equals(h)) {
            return true;
        }
        if (h.indexOf(':') >= 0) {
            String literal = h.startsWith("[") ? h : "[" + h + "]";
            try {
                // bracketed: parsed as an IPv6 literal only, no lookup
                return InetAddress.getByName(literal).isLoopbackAddress();
            } catch (UnknownHostException | SecurityException e) {
                return false;
            }
        }
        return isIpv4Loopback(h);
    }

    private static boolean isIpv4Loopback(String h) {
        String[] parts = h.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return "127".equals(parts[0]);
    }
}
