package dev.loommcp.skills;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * A {@code SKILL.md}'s frontmatter: split off the markdown, parsed as YAML 1.2 with the core schema (the typing of the
 * conformance suite and the TypeScript client: {@code ~} is null, {@code 010} is 10, {@code yes} a string), and
 * compared field by field with an entry's (SEP-2640 "Integrity and verification"). Duplicate keys, aliases of
 * collections and non-string keys are refused. Stateless.
 */
final class Frontmatter {

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
        LoadSettings settings = LoadSettings.builder().setSchema(new CoreSchema()).setAllowDuplicateKeys(false)
                .setMaxAliasesForCollections(0).setAllowRecursiveKeys(false).setLabel("SKILL.md frontmatter")
                .build();
        Object doc;
        try {
            doc = new Load(settings).loadFromString(yaml);
        } catch (YamlEngineException e) {
            throw new IllegalArgumentException("its frontmatter is not valid YAML: " + firstLine(e.getMessage()));
        }
        Object json = toJson(doc, "");
        if (!(json instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("its frontmatter is not a YAML mapping");
        }
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> map = (Map<String, @Nullable Object>) json;
        return map;
    }

    private static @Nullable Object toJson(@Nullable Object v, String path) {
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
                if (!(e.getKey() instanceof String k)) {
                    throw new IllegalArgumentException("its frontmatter has a key that is not a string at '" + path
                            + "'");
                }
                out.put(k, toJson(e.getValue(), path.isEmpty() ? k : path + "." + k));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            List<@Nullable Object> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(toJson(l.get(i), path + "[" + i + "]"));
            }
            return out;
        }
        throw new IllegalArgumentException("its frontmatter has a value that is not JSON (" + v.getClass()
                .getSimpleName() + ") at '" + path + "'");
    }

    /**
     * Returns the top-level keys whose values differ (a key on one side only, {@code null} against absent included):
     * objects compared in any key order, arrays in order, numbers by value ({@code 1} = {@code 1.0}), everything
     * else exactly ({@code "1"} is not {@code 1}).
     *
     * @param entry the entry's frontmatter
     * @param file  the parsed file's
     * @return the differing keys, sorted as met (entry's first); empty when equal
     */
    static List<String> differences(Map<String, @Nullable Object> entry, Map<String, @Nullable Object> file) {
        Set<String> keys = new LinkedHashSet<>(entry.keySet());
        keys.addAll(file.keySet());
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (entry.containsKey(k) != file.containsKey(k) || !same(entry.get(k), file.get(k))) {
                out.add(k);
            }
        }
        return out;
    }

    static boolean same(@Nullable Object a, @Nullable Object b) {
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
                if (!same(x.get(k), y.get(k))) {
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
                if (!same(x.get(i), y.get(i))) {
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
