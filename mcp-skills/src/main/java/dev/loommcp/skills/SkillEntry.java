package dev.loommcp.skills;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A skill's manifest as a server lists it ({@code skills/list}) or answers it ({@code skills/get}), checked against
 * SEP-2640's entry rules when it is created: {@code uri} is an absolute URI without query or fragment ending in
 * {@code /SKILL.md} inside a named directory; {@code frontmatter.name} is 1 to 64 characters of {@code [a-z0-9]}
 * with single inner hyphens and equals that directory's name; {@code description} is 1 to 1024 characters;
 * {@code compatibility}, when present, 1 to 500; {@code metadata}, when present, maps strings to strings;
 * {@code resources} is {@link #DYNAMIC} (the entry says {@code "dynamic"}; see {@link #dynamic}) or lists the
 * {@code SKILL.md} itself, each URI once, strictly inside
 * the skill's root, without query or fragment, none of them also the directory of another ({@code x} and
 * {@code x/y}), with a {@code sha256:} digest of 64 lowercase hex digits; the frontmatter is nested at most 64 levels.
 *
 * <p>The skill's identity within a host is (server label, {@link #uri()}), never the name alone (names are labels and
 * may collide) and never the server's self-reported name. Immutable.
 *
 * @param uri         the {@code SKILL.md} URI, as the server spelled it
 * @param frontmatter the whole frontmatter as JSON values (at least {@code name} and {@code description})
 * @param resources   every file of the skill, {@code SKILL.md} included, or {@link #DYNAMIC} for a {@code "dynamic"}
 *                    skill (whose files are not listed and cannot be checked by size and digest); never {@code null}
 * @param meta        the entry's {@code _meta}, or {@code null}
 */
public record SkillEntry(String uri, Map<String, @Nullable Object> frontmatter, List<SkillFileEntry> resources,
                         @Nullable Map<String, @Nullable Object> meta) {

    /**
     * The {@code resources} of a {@code "dynamic"} skill: an empty list told apart by identity (a listed skill lists
     * at least its {@code SKILL.md}). Pass it, or use {@link #dynamic}, to make an entry dynamic on purpose.
     */
    public static final List<SkillFileEntry> DYNAMIC = Collections.unmodifiableList(new ArrayList<>());

    /** The name rule of Agent Skills: lower-case letters and digits, single hyphens between them. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final String SKILL_MD = "SKILL.md";

    /**
     * Checks the entry and copies its collections.
     *
     * @throws NullPointerException     if {@code uri}, {@code frontmatter} or {@code resources} is {@code null} (a
     *                                  dynamic skill's is {@link #DYNAMIC})
     * @throws IllegalArgumentException if the entry breaks a rule of the class comment, naming it
     */
    public SkillEntry {
        Objects.requireNonNull(uri, "uri");
        frontmatter = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(frontmatter,
                "frontmatter")));
        Objects.requireNonNull(resources, "resources (a dynamic skill's are SkillEntry.DYNAMIC)");
        resources = resources == DYNAMIC ? DYNAMIC : List.copyOf(resources);
        meta = meta == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(meta));
        check(uri, frontmatter, resources);
    }

    /**
     * Returns the entry of a {@code "dynamic"} skill (its files are not listed).
     *
     * @param uri         the {@code SKILL.md} URI
     * @param frontmatter the whole frontmatter as JSON values
     * @param meta        the entry's {@code _meta}, or {@code null}
     * @return the entry, with {@link #DYNAMIC} resources
     * @throws NullPointerException     if {@code uri} or {@code frontmatter} is {@code null}
     * @throws IllegalArgumentException if the entry breaks a rule of the class comment, naming it
     */
    public static SkillEntry dynamic(String uri, Map<String, @Nullable Object> frontmatter,
                                     @Nullable Map<String, @Nullable Object> meta) {
        return new SkillEntry(uri, frontmatter, DYNAMIC, meta);
    }

    private static void check(String uri, Map<String, @Nullable Object> frontmatter,
                              List<SkillFileEntry> resources) {
        SkillUris.Parsed parsed;
        try {
            parsed = SkillUris.parse(uri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("uri: " + e.getMessage());
        }
        List<String> segs = parsed.segments();
        if (parsed.tail() || !parsed.plain() || segs.size() < 2 || !segs.getLast().equals(SKILL_MD)) {
            throw new IllegalArgumentException("uri must end in /SKILL.md inside a named directory, without query,"
                    + " fragment, empty, '.' or '..' segments");
        }
        String dir = segs.get(segs.size() - 2);
        String name = text(frontmatter, "name", 64, true);
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("frontmatter.name must be lower-case letters, digits and single inner"
                    + " hyphens");
        }
        if (!name.equals(dir)) {
            throw new IllegalArgumentException("frontmatter.name '" + name + "' differs from the skill's directory '"
                    + Printable.of(dir) + "'");
        }
        text(frontmatter, "description", 1024, true);
        text(frontmatter, "compatibility", 500, false);
        if (frontmatter.containsKey("metadata")) {
            if (!(frontmatter.get("metadata") instanceof Map<?, ?> m)
                    || m.values().stream().anyMatch(v -> !(v instanceof String))) {
                throw new IllegalArgumentException("frontmatter.metadata must map strings to strings");
            }
        }
        Frontmatter.checkDepth(frontmatter);
        if (resources != DYNAMIC) {
            checkFiles(parsed, resources);
        }
    }

    private static String text(Map<String, @Nullable Object> frontmatter, String key, int max, boolean required) {
        Object v = frontmatter.get(key);
        if (v == null && !required && !frontmatter.containsKey(key)) {
            return "";
        }
        if (!(v instanceof String s) || s.isEmpty() || s.codePointCount(0, s.length()) > max) {
            throw new IllegalArgumentException("frontmatter." + key + " must be a string of 1 to " + max
                    + " characters");
        }
        return s;
    }

    private static void checkFiles(SkillUris.Parsed skillMd, List<SkillFileEntry> files) {
        SkillUris.Parsed root = skillMd.parent();
        Set<String> seen = new HashSet<>();
        Set<String> dirs = new HashSet<>();
        boolean hasSkillMd = false;
        for (SkillFileEntry f : files) {
            SkillUris.Parsed p;
            try {
                p = SkillUris.parse(f.uri());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("resources: '" + Printable.of(f.uri()) + "': " + e.getMessage());
            }
            if (p.tail() || !p.plain() || !p.inside(root)) {
                throw new IllegalArgumentException("resources: '" + Printable.of(f.uri()) + "' is not strictly inside"
                        + " the skill's root (or has a query, a fragment, an empty, '.' or '..' segment)");
            }
            if (!seen.add(p.key())) {
                throw new IllegalArgumentException("resources: '" + Printable.of(f.uri()) + "' is listed twice");
            }
            if (!DIGEST.matcher(f.digest()).matches()) {
                throw new IllegalArgumentException("resources: '" + Printable.of(f.uri()) + "' has digest '"
                        + Printable.of(f.digest()) + "', not sha256: and 64 lower-case hex digits");
            }
            hasSkillMd |= p.key().equals(skillMd.key());
            for (SkillUris.Parsed d = p.parent(); d.segments().size() > root.segments().size(); d = d.parent()) {
                dirs.add(d.key());
            }
        }
        if (!hasSkillMd) {
            throw new IllegalArgumentException("resources does not list the SKILL.md itself");
        }
        // a skill is a tree of files: no file may also be a directory of another (x and x/y; SKILL.md and SKILL.md/x)
        for (SkillFileEntry f : files) {
            if (dirs.contains(SkillUris.parse(f.uri()).key())) {
                throw new IllegalArgumentException("resources: '" + Printable.of(f.uri()) + "' is a file and also"
                        + " the directory of another listed file");
            }
        }
    }

    /**
     * Returns the skill's name ({@code frontmatter.name}): a label, unique neither across servers nor within one.
     *
     * @return the name
     */
    public String name() {
        return (String) Objects.requireNonNull(frontmatter.get("name"));
    }

    /**
     * Returns the skill's description ({@code frontmatter.description}).
     *
     * @return the description
     */
    public String description() {
        return (String) Objects.requireNonNull(frontmatter.get("description"));
    }

    /**
     * Returns whether the skill's files are {@code "dynamic"} (not listed: no size and digest checks; the frontmatter
     * comparison still applies).
     *
     * @return {@code true} when {@link #resources()} is {@link #DYNAMIC}
     */
    public boolean isDynamic() {
        return resources == DYNAMIC;
    }

    /**
     * Returns the skill's root: the {@code SKILL.md} URI without {@code /SKILL.md}.
     *
     * @return the root URI
     */
    public String root() {
        return uri.substring(0, uri.length() - SKILL_MD.length() - 1);
    }

    /**
     * Returns the sum of the listed files' sizes.
     *
     * @return bytes; 0 for a dynamic skill
     */
    public long totalSize() {
        long sum = 0;
        for (SkillFileEntry f : resources) {
            sum = sum + f.size() < 0 ? Long.MAX_VALUE : sum + f.size();
        }
        return sum;
    }

    /**
     * Looks a listed file up by a reference: a path relative to the skill's root ({@code references/STYLE.md}; a
     * fragment is ignored) or an absolute URI, compared after percent-decoding each segment.
     *
     * @param ref the reference
     * @return the listed file; empty when it is not listed, does not resolve strictly inside the root, or the skill is
     *         dynamic
     */
    public Optional<SkillFileEntry> file(String ref) {
        Objects.requireNonNull(ref, "ref");
        if (isDynamic()) {
            return Optional.empty();
        }
        Optional<String> key = keyOf(ref);
        return key.flatMap(k -> resources.stream().filter(f -> SkillUris.parse(f.uri()).key().equals(k))
                .findFirst());
    }

    /**
     * The comparison key of a reference resolved against the root, when it is a plain path strictly inside it.
     */
    Optional<String> keyOf(String ref) {
        SkillUris.Parsed root = SkillUris.parse(uri).parent();
        try {
            SkillUris.Parsed p = SkillUris.resolve(root, ref);
            return p.plain() && !p.tail() && p.inside(root) ? Optional.of(p.key()) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The path of a listed or in-root URI below the skill's root (for writing files out). */
    String pathOf(String fileUri) {
        SkillUris.Parsed root = SkillUris.parse(uri).parent();
        return SkillUris.parse(fileUri).below(root);
    }

    /**
     * Reads an entry from its JSON form.
     *
     * @param json the entry object as plain JSON values
     * @return the entry
     * @throws IllegalArgumentException naming what is wrong
     */
    static SkillEntry fromJson(@Nullable Object json) {
        if (!(json instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("the entry is not an object");
        }
        if (!(m.get("uri") instanceof String uri)) {
            throw new IllegalArgumentException("uri is missing or not a string");
        }
        if (!(m.get("frontmatter") instanceof Map<?, ?> fm)
                || fm.keySet().stream().anyMatch(k -> !(k instanceof String))) {
            throw new IllegalArgumentException("frontmatter is missing or not an object");
        }
        Object res = m.get("resources");
        List<SkillFileEntry> files;
        if ("dynamic".equals(res)) {
            files = DYNAMIC;
        } else if (res instanceof List<?> list) {
            files = new ArrayList<>();
            for (Object o : list) {
                files.add(fileFromJson(o));
            }
        } else {
            throw new IllegalArgumentException(res == null ? "resources is missing"
                    : "resources must be an array or \"dynamic\"");
        }
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> front = (Map<String, @Nullable Object>) fm;
        @SuppressWarnings("unchecked")
        Map<String, @Nullable Object> meta = m.get("_meta") instanceof Map<?, ?> mm ? (Map<String, @Nullable Object>) mm
                : null;
        return new SkillEntry(uri, front, files, meta);
    }

    private static SkillFileEntry fileFromJson(@Nullable Object o) {
        if (!(o instanceof Map<?, ?> f) || !(f.get("uri") instanceof String u)) {
            throw new IllegalArgumentException("resources: an item is not an object with a string uri");
        }
        if (!(f.get("digest") instanceof String d)) {
            throw new IllegalArgumentException("resources: '" + Printable.of(u) + "' has no string digest");
        }
        Object size = f.get("size");
        long n;
        if (size instanceof Long || size instanceof Integer || size instanceof Short || size instanceof Byte) {
            n = ((Number) size).longValue();
        } else if (size instanceof java.math.BigInteger b && b.bitLength() < 64) {
            n = b.longValue();
        } else if (size instanceof Double || size instanceof Float || size instanceof java.math.BigDecimal) {
            java.math.BigDecimal v = new java.math.BigDecimal(size.toString());
            if (v.signum() < 0 || v.stripTrailingZeros().scale() > 0
                    || v.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new IllegalArgumentException("resources: '" + Printable.of(u) + "' size must be a non-negative"
                        + " integer");
            }
            n = v.longValueExact();
        } else {
            throw new IllegalArgumentException("resources: '" + Printable.of(u) + "' size must be a non-negative"
                    + " integer");
        }
        if (n < 0) {
            throw new IllegalArgumentException("resources: '" + Printable.of(u) + "' size must be a non-negative"
                    + " integer");
        }
        return new SkillFileEntry(u, d, n);
    }
}
