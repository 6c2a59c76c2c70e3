package dev.loommcp.transport.http;

import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The rules for HTTP headers that a caller adds to an {@link HttpTransport} (with
 * {@link HttpTransport.Builder#header} or a {@link RequestSigner}): which names a caller may set, and which values
 * can be sent. Tools that take headers from their own users (the {@code mcp} command line's {@code --header}) check
 * them with the same rules before building a transport.
 *
 * <p>Stateless; every method is thread-safe and never logs or returns a header value.
 */
public final class HeaderRules {

    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";
    static final String ACCEPT_POST = "application/json, text/event-stream";
    static final String ACCEPT_SSE = "text/event-stream";

    /**
     * Header names the transport sets itself (lower case), including the modern era's routing headers (MCP
     * 2026-07-28): a caller's copy would contradict them or, for {@code Mcp-Param-*}, stand in for an argument the
     * call does not carry.
     */
    static final Set<String> OWNED_HEADERS = Set.of("accept", "content-type", "mcp-session-id",
            "mcp-protocol-version", "last-event-id", "mcp-method", "mcp-name");
    /** The prefix of the modern era's tool parameter headers (lower case), which the transport owns too. */
    static final String OWNED_PREFIX = "mcp-param-";
    /** Header names the JDK or HTTP framing forbid (lower case). */
    static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "transfer-encoding", "te", "keep-alive", "trailer");

    private HeaderRules() {
    }

    /**
     * Whether a text is a valid header name: a non-empty HTTP token (RFC 9110 section 5.6.2: visible ASCII except
     * the delimiters {@code "(),/:;<=>?@[\]{}}).
     *
     * @param name the name to check; {@code null} is not a token
     * @return {@code true} when it is a token
     */
    public static boolean isToken(@Nullable String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTokenChar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a header name is one a caller may not set: one the transport sets itself ({@code Accept},
     * {@code Content-Type}, {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}, {@code Last-Event-ID}, and the
     * routing headers of MCP 2026-07-28: {@code Mcp-Method}, {@code Mcp-Name}, any {@code Mcp-Param-*}) or one the
     * JDK's HTTP client or HTTP framing forbid ({@code Host}, {@code Content-Length}, {@code Connection},
     * {@code Expect}, {@code Upgrade}, {@code Transfer-Encoding}, {@code TE}, {@code Keep-Alive}, {@code Trailer}).
     * Case-insensitive.
     *
     * @param name the header name
     * @return {@code true} when a caller may not set it
     * @throws NullPointerException if {@code name} is {@code null}
     */
    public static boolean isReserved(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return isOwned(lower) || RESTRICTED_HEADERS.contains(lower);
    }

    private static boolean isOwned(String lowerName) {
        return OWNED_HEADERS.contains(lowerName) || lowerName.startsWith(OWNED_PREFIX);
    }

    /**
     * Whether a value can be sent as an HTTP header value exactly as it is: visible ASCII, SP and HTAB. RFC 9110
     * field values are those plus obs-text (0x80-0xFF), but the JDK's HTTP/1.1 client writes a header line as
     * US-ASCII, so a Latin-1 letter would reach the server as {@code ?} (an "é" in an API key sent altered, silently);
     * a control character or DEL the JDK refuses with an {@link IllegalArgumentException} quoting the value. The
     * transport applies it to caller headers and to every value taken from the server that it sends back (SSE event
     * ids; session ids and the protocol version are stricter still). A tool's parameter headers encode such values
     * instead ({@code =?base64?...?=}, MCP 2026-07-28).
     *
     * @param value the value to check
     * @return {@code true} when it can be sent
     * @throws NullPointerException if {@code value} is {@code null}
     */
    public static boolean isValidValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns why a caller's header is not acceptable, naming the header but never its value (for example "the
     * header Host, which the HTTP client does not allow"), or {@code null} when it is acceptable.
     */
    static String problem(String name, String value) {
        if (name == null || name.isEmpty()) {
            return "a header without a name";
        }
        if (!isToken(name)) {
            return "a header name that is not an HTTP token";
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (isOwned(lower)) {
            return "the header " + name + ", which the transport sets itself";
        }
        if (RESTRICTED_HEADERS.contains(lower)) {
            return "the header " + name + ", which the HTTP client does not allow";
        }
        if (value == null) {
            return "a null value for the header " + name;
        }
        if (!isValidValue(value)) {
            return "an invalid value (control or non-ASCII character) for the header " + name;
        }
        return null;
    }

    /**
     * Whether a value the server chose can be sent back as a session id or protocol version: visible ASCII
     * (0x21-0x7E), not empty (spec "Session Management").
     */
    static boolean isVisibleAscii(String value) {
        return !value.isEmpty() && value.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    }

    private static boolean isTokenChar(char c) {
        if (c <= 0x20 || c >= 0x7f) {
            return false;
        }
        return "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }
}
