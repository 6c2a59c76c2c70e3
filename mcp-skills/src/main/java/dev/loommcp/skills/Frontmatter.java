package dev.loommcp.skills;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.MappingEndEvent;
import org.snakeyaml.engine.v2.events.MappingStartEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.events.SequenceEndEvent;
import org.snakeyaml.engine.v2.events.SequenceStartEvent;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * A {@code SKILL.md}'s frontmatter: split off the markdown, parsed as YAML 1.2 with the core schema (the typing of the
 * conformance suite and the TypeScript client: {@code ~} is null, {@code 010} is 10, {@code yes} a string), and
 * compared field by field with an entry's (SEP-2640 "Integrity and verification"). Duplicate keys, aliases of
 * collections and complex keys are refused; a scalar key (an integer, a boolean, a float, {@code null}) is taken in
 * its value's text ({@code 1: v} has the key {@code "1"}, {@code 010: v} {@code "10"}, {@code true: v}
 * {@code "true"}, {@code 1.50: v} {@code "1.5"}: what the TypeScript client's object keys become). Bounded: nesting at most {@value #MAX_DEPTH} levels (checked on
 * the YAML's events before a tree is built, and again in the conversion and the comparison), the YAML's code points
 * at most its own length (the {@code SKILL.md}'s listed size bounds it), and its scalars with aliases expanded at most
 * {@value #EXPANSION_FACTOR} times the YAML's length. Stateless.
 */
final class Frontmatter {

    /** The deepest nesting of collections a frontmatter (or an entry's, compared with it) may have: 64 levels. */
    static final int MAX_DEPTH = 64;
    /** How much larger than the YAML text its scalars may become once aliases are expanded. */
    static final int EXPANSION_FACTOR = 4;

    private Frontmatter() {
    }

    /**
     * The parts of a {@code SKILL.md}.
     *
     * @param yaml the frontmatter's YAML text
     * @param body the markdown after the closing {@code ---} line
     */
    record Split(String yaml, String body) {
    }

    /**
     * Splits a {@code SKILL.md}: CRLF normalized to LF, one leading BOM dropped, a first line {@code ---}, then up to
     * the next line that is {@code ---} with optional trailing spaces or tabs.
     *
     * @param text the file's text
     * @return the parts
     * @throws IllegalArgumentException when it has no frontmatter block
     */
    static Split split(String text) {
        String s = text.replace("\r\n", "\n");
        if (s.startsWith("\uFEFF")) {
            s = s.substring(1);
        }
        if (!s.startsWith("---\n")) {
            throw new IllegalArgumentException("it does not start with a '---' line");
        }
        int pos = 4;
        int lineStart = pos;
        while (lineStart <= s.length()) {
            int end = s.indexOf('\n', lineStart);
            String line = end < 0 ? s.substring(lineStart) : s.substring(lineStart, end);
            if (line.startsWith("---") && line.substring(3).chars().allMatch(c -> c == ' ' || c == '\t')) {
                String yaml = lineStart == pos ? "" : s.substring(pos, lineStart - 1);
                return new Split(yaml, end < 0 ? "" : s.substring(end + 1));
            }
            if (end < 0) {
                break;
            }
            lineStart = end + 1;
        }
        throw new IllegalArgumentException("its frontmatter has no closing '---' line");
    }

    /**
     * Parses the frontmatter YAML into JSON values.
     *
     * @param yaml the YAML text
     * @return the mapping
     * @throws IllegalArgumentException when it is not one YAML mapping with string keys, or not valid YAML
     */
    static Map<String, @Nullable Object> parse(String yaml) {
        // the code point limit is the text's own length (the SKILL.md's listed size bounds the text)
        LoadSettings settings = LoadSettings.builder().setSchema(new CoreSchema()).setAllowDuplicateKeys(false)
                .setMaxAliasesForCollections(0).setAllowRecursiveKeys(false).setLabel("SKILL.md frontmatter")
                .setCodePointLimit(Math.max(1, yaml.length())).setParseComments(false).build();
        Object doc;
        try {
            // the events first (the parser is a loop, the composer recurses once per level): nesting and aliases
            // are bounded before a tree is built
            checkEvents(new ParserImpl(settings, new StreamReader(settings, yaml)), yaml.length());
            doc = new Load(settings).loadFromString(yaml);
        } catch (YamlEngineException e) {
            throw new IllegalArgumentException("its frontmatter is not valid YAML: " + firstLine(e.getMessage()));
        }
        Object json = toJson(doc, "", 0);
        if (!(json instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("its frontmatter is not a YAML mapping");
        }
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> map = (Map<String, @Nullable Object>) json;
        return map;
    }

    /**
     * Walks the YAML events: refuses a nesting deeper than {@value #MAX_DEPTH} and scalars that aliases expand past
     * {@value #EXPANSION_FACTOR} times the text's length (an alias of a long scalar used many times).
     */
    private static void checkEvents(java.util.Iterator<Event> events, int length) {
        long expansion = (long) EXPANSION_FACTOR * length + 1024;
        Map<String, Integer> anchored = new HashMap<>();
        int depth = 0;
        while (events.hasNext()) {
            switch (events.next()) {
                case MappingStartEvent m -> depth++;
                case SequenceStartEvent q -> depth++;
                case MappingEndEvent m -> depth--;
                case SequenceEndEvent q -> depth--;
                case ScalarEvent sc -> {
                    expansion -= sc.getValue().length();
                    sc.getAnchor().ifPresent(a -> anchored.put(a.getValue(), sc.getValue().length()));
                }
                case AliasEvent a -> expansion -= anchored.getOrDefault(a.getAlias().getValue(), 0) + 1L;
                default -> {
                }
            }
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("its frontmatter is nested deeper than " + MAX_DEPTH + " levels");
            }
            if (expansion < 0) {
                throw new IllegalArgumentException("its frontmatter's aliases expand it to more than "
                        + EXPANSION_FACTOR + " times its own length");
            }
        }
    }

    private static @Nullable Object toJson(@Nullable Object v, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("its frontmatter is nested deeper than " + MAX_DEPTH + " levels at '"
                    + Printable.of(path) + "'");
        }
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long
                || v instanceof BigInteger) {
            return v;
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                throw new IllegalArgumentException("its frontmatter has a non-finite number at '" + path + "'");
            }
            return d;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, @Nullable Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String k = key(e.getKey(), path);
                if (out.containsKey(k)) {
                    throw new IllegalArgumentException("its frontmatter has the key '" + Printable.of(k)
                            + "' twice at '" + Printable.of(path) + "' (as text)");
                }
                out.put(k, toJson(e.getValue(), path.isEmpty() ? k : path + "." + k, depth + 1));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<@Nullable Object> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(toJson(l.get(i), path + "[" + i + "]", depth + 1));
            }
            return out;
        }
        throw new IllegalArgumentException("its frontmatter has a value that is not JSON (" + v.getClass()
                .getSimpleName() + ") at '" + path + "'");
    }

    /**
     * Checks that a value (an entry's frontmatter) is nested at most {@value #MAX_DEPTH} levels.
     *
     * @throws IllegalArgumentException when it is nested deeper
     */
    static void checkDepth(@Nullable Object value) {
        checkDepth(value, 0);
    }

    private static void checkDepth(@Nullable Object value, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("frontmatter is nested deeper than " + MAX_DEPTH + " levels");
        }
        if (value instanceof Map<?, ?> m) {
            for (Object v : m.values()) {
                checkDepth(v, depth + 1);
            }
        } else if (value instanceof List<?> l) {
            for (Object v : l) {
                checkDepth(v, depth + 1);
            }
        }
    }

    /**
     * A mapping key as text: a string as it is, another scalar (the core schema made it a number, boolean or null)
     * as its value's text ({@code 1}, {@code true}, {@code null}, {@code 1.5}); a collection key is refused.
     */
    private static String key(@Nullable Object key, String path) {
        if (key instanceof String k) {
            return k;
        }
        if (key == null) {
            return "null";
        }
        if (key instanceof Boolean || key instanceof Integer || key instanceof Long || key instanceof BigInteger) {
            return key.toString();
        }
        if (key instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? (d.isNaN() ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
                    : new BigDecimal(d.toString()).stripTrailingZeros().toPlainString();
        }
        throw new IllegalArgumentException("its frontmatter has a key that is not a scalar (a "
                + (key instanceof Map<?, ?> ? "mapping" : key instanceof List<?> ? "sequence"
                : key.getClass().getSimpleName()) + ") at '" + Printable.of(path) + "'");
    }

    /**
     * Returns the top-level keys whose values differ (a key on one side only, {@code null} against absent included):
     * objects compared in any key order, arrays in order, numbers by value ({@code 1} = {@code 1.0}), everything
     * else exactly ({@code "1"} is not {@code 1}).
     *
     * @param entry the entry's frontmatter
     * @param file  the parsed file's
     * @return the differing keys, sorted as met (entry's first); empty when equal
     * @throws IllegalArgumentException when a value of both is nested deeper than {@value #MAX_DEPTH} levels
     */
    static List<String> differences(Map<String, @Nullable Object> entry, Map<String, @Nullable Object> file) {
        Set<String> keys = new LinkedHashSet<>(entry.keySet());
        keys.addAll(file.keySet());
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (entry.containsKey(k) != file.containsKey(k) || !same(entry.get(k), file.get(k), 1)) {
                out.add(k);
            }
        }
        return out;
    }

    static boolean same(@Nullable Object a, @Nullable Object b) {
        return same(a, b, 0);
    }

    private static boolean same(@Nullable Object a, @Nullable Object b, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("its frontmatter is nested deeper than " + MAX_DEPTH + " levels");
        }
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Number x && b instanceof Number y) {
            BigDecimal bx = decimal(x);
            BigDecimal by = decimal(y);
            return bx != null && by != null && bx.compareTo(by) == 0;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) {
                return false;
            }
            for (Object k : x.keySet()) {
                if (!same(x.get(k), y.get(k), depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i), depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return (a instanceof String || a instanceof Boolean) && a.equals(b);
    }

    private static @Nullable BigDecimal decimal(Number n) {
        try {
            return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
        } catch (NumberFormatException e) {
            return null; // NaN, infinities: equal to nothing
        }
    }

    private static String firstLine(@Nullable String s) {
        if (s == null) {
            return "(no detail)";
        }
        int nl = s.indexOf('\n');
        return Printable.of(nl < 0 ? s : s.substring(0, nl));
    }
}
