package dev.loommcp.transport.http;

import static dev.loommcp.transport.http.HeaderRules.ACCEPT_POST;
import static dev.loommcp.transport.http.HeaderRules.VERSION_HEADER;

import dev.loommcp.spi.RequestRouting;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The headers of a modern-era POST (MCP 2026-07-28 "Streamable HTTP: request metadata"): {@code Accept},
 * {@code Content-Type}, {@code MCP-Protocol-Version}, {@code Mcp-Method}, {@code Mcp-Name} when the message has a
 * routing name, and {@code Mcp-Param-<name>} for each designated tool argument; never {@code Mcp-Session-Id}.
 *
 * <p>Value encoding ("Value Encoding"): a {@code Mcp-Name} or {@code Mcp-Param-*} value is sent as is when it is
 * plain header-safe ASCII (0x20-0x7E, no leading or trailing space; internal spaces are fine, the empty string is an
 * empty header value); otherwise (non-ASCII, any control character including TAB, CR and LF, DEL, leading or
 * trailing whitespace) and whenever it looks like the sentinel itself (starts with {@code =?base64?} and ends with
 * {@code ?=}) it is sent as {@code =?base64?<base64 of its UTF-8 bytes>?=}.
 *
 * <p>Stateless; thread-safe. Never logs or puts a header value in a message.
 */
final class RoutingHeaders {

    static final String METHOD_HEADER = "Mcp-Method";
    static final String NAME_HEADER = "Mcp-Name";
    static final String PARAM_PREFIX = "Mcp-Param-";
    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";

    private RoutingHeaders() {
    }

    /**
     * The transport's headers of a modern POST.
     *
     * @param routing the message's routing facts
     * @return the headers, in order
     * @throws IllegalArgumentException if the protocol version or the method cannot be sent as a header (not plain
     *                                  visible ASCII), or a parameter header name is not an HTTP token; the message
     *                                  names the header, never the value
     */
    static Headers post(RequestRouting routing) {
        if (!HeaderRules.isVisibleAscii(routing.protocolVersion())) {
            throw new IllegalArgumentException("the protocol version cannot be sent as " + VERSION_HEADER
                    + " (it must be visible ASCII)");
        }
        if (!HeaderRules.isVisibleAscii(routing.method())) {
            throw new IllegalArgumentException("the method cannot be sent as " + METHOD_HEADER
                    + " (it must be visible ASCII)");
        }
        List<String> h = new ArrayList<>(12 + 2 * routing.parameterHeaders().size());
        h.addAll(List.of("Accept", ACCEPT_POST, "Content-Type", "application/json",
                VERSION_HEADER, routing.protocolVersion(), METHOD_HEADER, routing.method()));
        if (routing.name() != null) {
            h.add(NAME_HEADER);
            h.add(encode(routing.name()));
        }
        for (Map.Entry<String, String> p : routing.parameterHeaders().entrySet()) {
            if (!HeaderRules.isToken(p.getKey())) {
                throw new IllegalArgumentException("a tool parameter header name is not an HTTP token");
            }
            if (p.getValue() == null) {
                continue;
            }
            h.add(PARAM_PREFIX + p.getKey());
            h.add(encode(p.getValue()));
        }
        return Headers.of(h.toArray(new String[0]));
    }

    /**
     * Encodes one {@code Mcp-Name} or {@code Mcp-Param-*} value.
     *
     * @param value the raw value
     * @return the value itself when it is plain header-safe ASCII, else {@code =?base64?...?=}
     */
    static String encode(String value) {
        return isPlain(value) ? value : SENTINEL_START
                + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + SENTINEL_END;
    }

    /** Whether a value can go as is: printable ASCII or space, no space at either end, not sentinel-shaped. */
    static boolean isPlain(String value) {
        if (value.isEmpty()) {
            return true;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        if (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ') {
            return false;
        }
        return !(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END));
    }
}
