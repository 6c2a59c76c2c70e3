package dev.loommcp.internal.session.tools;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code x-mcp-header} annotations of one tool's {@code inputSchema} (MCP 2026-07-28 "Streamable HTTP: custom
 * headers from tool parameters", "Tools: x-mcp-header"): validated once when the tool is listed, then used to
 * mirror a {@code tools/call}'s designated arguments into {@code Mcp-Param-<name>} headers.
 *
 * <p>An annotation is valid when its value is a non-empty string that is an HTTP token (RFC 9110 section 5.6.2; so no
 * space, colon, control character, CR, LF or non-ASCII character), case-insensitively unique among the schema's
 * annotations, on a property whose {@code type} is {@code string}, {@code integer} or {@code boolean} (optionally
 * together with {@code "null"}; never {@code number}, {@code object}, {@code array} or {@code null} alone, and a
 * type must be declared), and on a property reachable from the schema root through a chain of {@code properties}
 * keys only (an annotation under {@code items}, {@code oneOf}/{@code anyOf}/{@code allOf}/{@code not},
 * {@code if}/{@code then}/{@code else}, {@code $defs} or any other keyword, or on the root itself, is invalid). One
 * invalid annotation makes the whole tool definition invalid: {@link #problem()} says why, naming the property but
 * never an argument value.
 *
 * <p>Immutable and thread-safe.
 */
public final class ParameterHeaders {

    /** The largest integer a header may carry: 2^53 - 1 (the safe range of a JavaScript number). */
    static final BigInteger MAX_SAFE_INTEGER = BigInteger.valueOf((1L << 53) - 1);

    /** No annotations: a valid definition that designates nothing. */
    public static final ParameterHeaders NONE = new ParameterHeaders(List.of(), null);

    private static final String ANNOTATION = "x-mcp-header";
    /** Keywords whose values are instance data, never schemas: an {@code x-mcp-header} key there is no annotation. */
    private static final Set<String> DATA_KEYWORDS = Set.of("const", "enum", "default", "examples");

    /** One annotated property: the header suffix, the chain of property names, and the declared type. */
    private record Param(String suffix, List<String> path, String type) {
    }

    private final List<Param> params;
    private final String problem;

    private ParameterHeaders(List<Param> params, String problem) {
        this.params = params;
        this.problem = problem;
    }

    /**
     * Reads and validates the annotations of a tool's {@code inputSchema}.
     *
     * @param inputSchema the schema as received (a JSON object as a map), or {@code null}; anything that is not an
     *                    object has no annotations
     * @return the annotations, or an invalid instance whose {@link #problem()} says what is wrong
     */
    public static ParameterHeaders of(Object inputSchema) {
        if (!(inputSchema instanceof Map<?, ?> root)) {
            return NONE;
        }
        List<Param> found = new ArrayList<>();
        String problem = scan(root, true, new ArrayList<>(), found);
        if (problem == null) {
            Set<String> seen = new HashSet<>();
            for (Param p : found) {
                if (!seen.add(p.suffix().toLowerCase(Locale.ROOT))) {
                    problem = "x-mcp-header of property " + describe(p.path()) + " repeats a header name already "
                            + "used by another property (names are compared case-insensitively)";
                    break;
                }
            }
        }
        if (problem != null) {
            return new ParameterHeaders(List.of(), problem);
        }
        return found.isEmpty() ? NONE : new ParameterHeaders(List.copyOf(found), null);
    }

    /**
     * Returns whether every annotation is valid.
     *
     * @return {@code true} when the tool may be listed and called over Streamable HTTP
     */
    public boolean isValid() {
        return problem == null;
    }

    /**
     * Returns why the annotations are invalid.
     *
     * @return the reason, naming the property; {@code null} when valid
     */
    public String problem() {
        return problem;
    }

    /**
     * Returns the header suffixes the tool designates, in schema order.
     *
     * @return the names ({@code Region} for {@code Mcp-Param-Region}); empty when none or invalid
     */
    public List<String> names() {
        return params.stream().map(Param::suffix).toList();
    }

    /**
     * Extracts the designated arguments of a call as raw header values: a string as is, an integer in decimal, a
     * boolean as {@code true}/{@code false}; an argument that is absent or {@code null} (or whose enclosing object
     * is) is omitted.
     *
     * @param arguments the call's arguments, or {@code null}
     * @return the values by header suffix, in schema order; unmodifiable
     * @throws IllegalStateException    if the annotations are invalid (check {@link #isValid()} first)
     * @throws IllegalArgumentException if a designated argument is an object, an array, a number that is not an
     *                                  integer, or an integer outside +-(2^53 - 1); the message names the property
     *                                  and the header, never the value
     */
    public Map<String, String> extract(Map<String, Object> arguments) {
        if (problem != null) {
            throw new IllegalStateException("the tool's x-mcp-header annotations are invalid: " + problem);
        }
        if (params.isEmpty() || arguments == null) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Param p : params) {
            Object value = valueAt(arguments, p.path());
            if (value != null) {
                out.put(p.suffix(), text(value, p));
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static Object valueAt(Map<String, Object> arguments, List<String> path) {
        Object node = arguments;
        for (String key : path) {
            if (!(node instanceof Map<?, ?> m)) {
                return null;
            }
            node = m.get(key);
        }
        return node;
    }

    private static String text(Object value, Param p) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Boolean b) {
            return b ? "true" : "false";
        }
        if (value instanceof Number n) {
            BigInteger i = integral(n);
            if (i == null) {
                throw new IllegalArgumentException("argument " + describe(p.path()) + " (header Mcp-Param-"
                        + p.suffix() + ") is a number that is not an integer; only strings, integers and booleans "
                        + "can be sent as headers");
            }
            if (i.abs().compareTo(MAX_SAFE_INTEGER) > 0) {
                throw new IllegalArgumentException("argument " + describe(p.path()) + " (header Mcp-Param-"
                        + p.suffix() + ") is an integer outside the range +-(2^53 - 1) that headers may carry");
            }
            return i.toString();
        }
        throw new IllegalArgumentException("argument " + describe(p.path()) + " (header Mcp-Param-" + p.suffix()
                + ") is " + (value instanceof Map ? "an object" : value instanceof List ? "an array" : "a "
                + value.getClass().getSimpleName()) + "; only strings, integers and booleans can be sent as headers");
    }

    /** The integer a number stands for, or {@code null} when it has a fraction or is not finite. */
    private static BigInteger integral(Number n) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
            return BigInteger.valueOf(n.longValue());
        }
        if (n instanceof BigInteger b) {
            return b;
        }
        BigDecimal d;
        try {
            d = n instanceof BigDecimal bd ? bd : new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            return null; // NaN, infinities
        }
        try {
            return d.toBigIntegerExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * Walks one schema node, collecting annotations on reachable properties and failing on any other.
     *
     * @param reachable whether the node is the root or a property reached through {@code properties} only
     * @param path      the property names leading to the node (empty for the root and for unreachable nodes)
     * @return the first problem, or {@code null}
     */
    private static String scan(Map<?, ?> node, boolean reachable, List<String> path, List<Param> found) {
        if (node.containsKey(ANNOTATION)) {
            if (!reachable || path.isEmpty()) {
                return "an x-mcp-header annotation " + (path.isEmpty() && reachable ? "on the schema root"
                        : "below " + (path.isEmpty() ? "the root" : "property " + describe(path))
                        + " under a keyword other than properties")
                        + " is not allowed (it must be on a property reachable from the root through properties only)";
            }
            String problem = check(node, path, found);
            if (problem != null) {
                return problem;
            }
        }
        for (Map.Entry<?, ?> e : node.entrySet()) {
            String key = String.valueOf(e.getKey());
            Object value = e.getValue();
            if (key.equals(ANNOTATION) || DATA_KEYWORDS.contains(key)) {
                continue;
            }
            String problem;
            if (key.equals("properties") && value instanceof Map<?, ?> props) {
                problem = scanProperties(props, reachable, path, found);
            } else {
                problem = scanAny(value, path, found);
            }
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String scanProperties(Map<?, ?> props, boolean reachable, List<String> path, List<Param> found) {
        for (Map.Entry<?, ?> p : props.entrySet()) {
            if (p.getValue() instanceof Map<?, ?> child) {
                List<String> childPath = new ArrayList<>(path);
                childPath.add(String.valueOf(p.getKey()));
                String problem = scan(child, reachable, childPath, found);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    /** Any other keyword's value: schemas (or maps and lists of schemas) that are not statically reachable. */
    private static String scanAny(Object value, List<String> path, List<Param> found) {
        if (value instanceof Map<?, ?> m) {
            // a keyword whose value is a schema ({@code items}, {@code not}), or a map of schemas ({@code $defs}):
            // either way nothing below it is reachable, so any annotation there is invalid
            return scan(m, false, path, found);
        }
        if (value instanceof List<?> list) {
            for (Object o : list) {
                String problem = scanAny(o, path, found);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }

    /** Checks one annotation on a reachable property and records it. */
    private static String check(Map<?, ?> property, List<String> path, List<Param> found) {
        String where = "x-mcp-header of property " + describe(path);
        Object raw = property.get(ANNOTATION);
        if (!(raw instanceof String name)) {
            return where + " is not a string";
        }
        if (name.isEmpty()) {
            return where + " is empty";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return where + " contains a control character";
            }
        }
        if (!isToken(name)) {
            return where + " is not an HTTP token (RFC 9110 section 5.6.2: no spaces, delimiters such as ':' or "
                    + "non-ASCII characters)";
        }
        String type = primitiveType(property.get("type"));
        if (type == null) {
            return where + " is on a property whose type is " + describeType(property.get("type"))
                    + "; only string, integer and boolean properties may be mirrored into headers";
        }
        found.add(new Param(name, List.copyOf(path), type));
        return null;
    }

    /** The declared primitive type: one of string, integer, boolean, optionally with "null"; else {@code null}. */
    private static String primitiveType(Object type) {
        if (type instanceof String s) {
            return isPrimitive(s) ? s : null;
        }
        if (type instanceof List<?> list) {
            String primitive = null;
            for (Object o : list) {
                if ("null".equals(o)) {
                    continue;
                }
                if (!(o instanceof String s) || !isPrimitive(s) || primitive != null) {
                    return null;
                }
                primitive = s;
            }
            return primitive;
        }
        return null;
    }

    private static boolean isPrimitive(String type) {
        return type.equals("string") || type.equals("integer") || type.equals("boolean");
    }

    private static String describeType(Object type) {
        if (type == null) {
            return "not declared";
        }
        return type instanceof String s ? printable(s) : type instanceof List<?> l ? "a union of " + l.size()
                + " types" : "malformed";
    }

    /** Whether a text is an HTTP token: visible ASCII except the delimiters {@code "(),/:;<=>?@[\]{}}. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** A property path for messages, printable and bounded. */
    static String describe(List<String> path) {
        return "'" + printable(String.join(".", path)) + "'";
    }

    /** A server-chosen name made safe for a log line: controls and non-ASCII escaped, at most 100 characters. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && sb.length() < 100; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return s.length() > 100 ? sb + "..." : sb.toString();
    }

    @Override
    public String toString() {
        return problem == null ? "ParameterHeaders" + names() : "ParameterHeaders[invalid: " + problem + "]";
    }
}
