package dev.loommcp.transport.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One challenge of a {@code WWW-Authenticate} response header (RFC 9110 section 11.6.1), as carried by an
 * {@link McpHttpStatusException} for HTTP 401 and 403. For MCP authorization (spec "Authorization", RFC 9728) the
 * interesting one is usually {@code Bearer} with the parameters {@code resource_metadata}, {@code scope} and
 * {@code error}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param scheme     the authentication scheme as sent (for example {@code Bearer}); compare without case
 * @param parameters the auth parameters, names in lower case, values unquoted; insertion ordered, read-only
 * @param token68    the token68 form of the credentials (for example {@code Negotiate abc=}), or {@code null}
 */
public record AuthChallenge(String scheme, Map<String, String> parameters, @Nullable String token68) {

    /**
     * Creates a challenge.
     *
     * @throws NullPointerException if {@code scheme} or {@code parameters} is {@code null}
     */
    public AuthChallenge {
        Objects.requireNonNull(scheme, "scheme");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(parameters, "parameters")));
    }

    /**
     * Returns one parameter.
     *
     * @param name the parameter name, compared without case
     * @return the value, or empty when absent
     */
    public Optional<String> parameter(String name) {
        return Optional.ofNullable(parameters.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * Parses the values of every {@code WWW-Authenticate} header of a response. Malformed parts are skipped; this
     * never throws.
     *
     * @param headerValues the header values, in order
     * @return the challenges, in order; empty when none could be read
     */
    public static List<AuthChallenge> parse(List<String> headerValues) {
        List<AuthChallenge> out = new ArrayList<>();
        for (String v : headerValues) {
            if (v != null) {
                new Parser(v).parse(out);
            }
        }
        return List.copyOf(out);
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        void parse(List<AuthChallenge> out) {
            String scheme = null;
            Map<String, String> params = new LinkedHashMap<>();
            String token68 = null;
            while (true) {
                skipOwsAndCommas();
                if (pos >= s.length()) {
                    break;
                }
                int itemStart = pos;
                String token = token();
                if (token.isEmpty()) {
                    skipItem();
                    continue;
                }
                int afterToken = pos;
                skipOws();
                if (pos < s.length() && s.charAt(pos) == '=' && scheme != null && !isToken68Tail(itemStart)) {
                    pos++;
                    skipOws();
                    params.putIfAbsent(token.toLowerCase(Locale.ROOT), value());
                    skipToComma();
                    continue;
                }
                // a new challenge
                if (scheme != null) {
                    out.add(new AuthChallenge(scheme, params, token68));
                }
                scheme = token;
                params = new LinkedHashMap<>();
                token68 = null;
                pos = afterToken;
                if (pos >= s.length() || s.charAt(pos) == ',') {
                    continue;
                }
                skipOws();
                if (pos >= s.length() || s.charAt(pos) == ',') {
                    continue;
                }
                int restStart = pos;
                String first = token();
                int afterFirst = pos;
                skipOws();
                boolean param = !first.isEmpty() && pos < s.length() && s.charAt(pos) == '='
                        && !isToken68Tail(restStart);
                if (param) {
                    pos++;
                    skipOws();
                    params.putIfAbsent(first.toLowerCase(Locale.ROOT), value());
                    skipToComma();
                } else {
                    pos = restStart;
                    int end = pos;
                    while (end < s.length() && isToken68Char(s.charAt(end))) {
                        end++;
                    }
                    while (end < s.length() && s.charAt(end) == '=') {
                        end++;
                    }
                    token68 = end > pos ? s.substring(pos, end) : null;
                    pos = Math.max(end, afterFirst);
                    skipToComma();
                }
            }
            if (scheme != null) {
                out.add(new AuthChallenge(scheme, params, token68));
            }
        }

        /** Whether the item starting at {@code start} is a token68 ending in '=' padding with nothing after. */
        private boolean isToken68Tail(int start) {
            int i = start;
            while (i < s.length() && isToken68Char(s.charAt(i))) {
                i++;
            }
            if (i >= s.length() || s.charAt(i) != '=') {
                return false;
            }
            while (i < s.length() && s.charAt(i) == '=') {
                i++;
            }
            int j = i;
            while (j < s.length() && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) {
                j++;
            }
            return j >= s.length() || s.charAt(j) == ',';
        }

        private String value() {
            if (pos < s.length() && s.charAt(pos) == '"') {
                pos++;
                StringBuilder sb = new StringBuilder();
                while (pos < s.length()) {
                    char c = s.charAt(pos++);
                    if (c == '\\' && pos < s.length()) {
                        sb.append(s.charAt(pos++));
                    } else if (c == '"') {
                        return sb.toString();
                    } else {
                        sb.append(c);
                    }
                }
                return sb.toString();
            }
            return token();
        }

        private String token() {
            int start = pos;
            while (pos < s.length() && isTokenChar(s.charAt(pos))) {
                pos++;
            }
            return s.substring(start, pos);
        }

        private void skipOws() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
                pos++;
            }
        }

        private void skipOwsAndCommas() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t' || s.charAt(pos) == ',')) {
                pos++;
            }
        }

        private void skipToComma() {
            boolean quoted = false;
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (quoted) {
                    if (c == '\\') {
                        pos++;
                    } else if (c == '"') {
                        quoted = false;
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    return;
                }
                pos++;
            }
        }

        private void skipItem() {
            if (pos < s.length()) {
                pos++;
            }
            skipToComma();
        }

        private static boolean isToken68Char(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
        }

        static boolean isTokenChar(char c) {
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
            return "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
        }
    }
}
