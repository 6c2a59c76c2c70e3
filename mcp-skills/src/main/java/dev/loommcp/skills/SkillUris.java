package dev.loommcp.skills;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Skill URIs compared the way the TypeScript client does (SEP-2640 "Skill URIs"): scheme case-insensitive, every
 * segment (the authority of {@code skill://} included: it is the first segment of the skill path, never a host, never
 * resolved) percent-decoded, so {@code Q&A.md} and {@code Q%26A.md} are one file. A segment that decodes to a
 * {@code /} or NUL, or is not valid UTF-8, makes the URI unusable. Stateless.
 */
final class SkillUris {

    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*");

    private SkillUris() {
    }

    /**
     * A URI split for comparison.
     *
     * @param scheme   the scheme, lower case
     * @param segments the decoded segments: the authority (when the URI has {@code //}) then the path's
     * @param tail     whether it had a query or a fragment
     */
    record Parsed(String scheme, List<String> segments, boolean tail) {

        /** The comparison key. */
        String key() {
            return scheme + ":" + String.join("/", segments);
        }

        /** Whether every segment is a plain name (not empty, {@code .} or {@code ..}). */
        boolean plain() {
            return segments.stream().noneMatch(s -> s.isEmpty() || s.equals(".") || s.equals(".."));
        }

        /** Whether this is strictly inside {@code root} (more segments, the root's as prefix). */
        boolean inside(Parsed root) {
            return scheme.equals(root.scheme) && segments.size() > root.segments.size()
                    && segments.subList(0, root.segments.size()).equals(root.segments);
        }

        /** This URI's parent (the last segment dropped). */
        Parsed parent() {
            return new Parsed(scheme, segments.subList(0, segments.size() - 1), false);
        }

        /** The path below {@code root}, joined with {@code /}. */
        String below(Parsed root) {
            return String.join("/", segments.subList(root.segments.size(), segments.size()));
        }
    }

    /**
     * Splits an absolute URI.
     *
     * @param uri the URI
     * @return the parts
     * @throws IllegalArgumentException if it has no scheme, a bad percent escape, or a segment that decodes to
     *                                  {@code /}, NUL or invalid UTF-8
     */
    static Parsed parse(String uri) {
        int colon = uri.indexOf(':');
        if (colon <= 0 || !SCHEME.matcher(uri.substring(0, colon)).matches()) {
            throw new IllegalArgumentException("not an absolute URI");
        }
        String rest = uri.substring(colon + 1);
        int cut = indexOfAny(rest, "?#");
        boolean tail = cut >= 0;
        if (tail) {
            rest = rest.substring(0, cut);
        }
        if (rest.startsWith("//")) {
            rest = rest.substring(2);
        }
        return new Parsed(uri.substring(0, colon).toLowerCase(java.util.Locale.ROOT), segments(rest), tail);
    }

    /**
     * Resolves a reference against a skill's root: an absolute URI as it is (its {@code .} and {@code ..} segments
     * kept, so it is not {@linkplain Parsed#plain() plain}), else a relative path like a file path (its fragment
     * dropped; {@code .} segments dropped, {@code ..} taking the segment before it off, RFC 3986 section 5.2.4):
     * {@code ./references/A.md} and {@code references/../references/A.md} are {@code references/A.md}; a trailing
     * {@code .} or {@code ..} (a directory), and a percent-encoded one ({@code %2E%2E}), are kept, so the result is not
     * {@linkplain Parsed#plain() plain}.
     *
     * @param root the skill's root
     * @param ref  the reference
     * @return the resolved URI's parts
     * @throws IllegalArgumentException as {@link #parse}, or when a {@code ..} climbs out of the root
     */
    static Parsed resolve(Parsed root, String ref) {
        int colon = ref.indexOf(':');
        int slash = ref.indexOf('/');
        if (colon > 0 && (slash < 0 || colon < slash) && SCHEME.matcher(ref.substring(0, colon)).matches()) {
            return parse(ref);
        }
        String path = ref;
        int cut = indexOfAny(path, "?#");
        boolean query = cut >= 0 && path.charAt(cut) == '?';
        if (cut >= 0) {
            path = path.substring(0, cut);
        }
        if (path.startsWith("/")) {
            throw new IllegalArgumentException("an absolute path is not relative to the skill");
        }
        List<String> all = new ArrayList<>(root.segments());
        String[] raw = path.split("/", -1);
        List<String> rel = segments(path);
        for (int i = 0; i < rel.size(); i++) {
            String s = rel.get(i);
            boolean last = i == rel.size() - 1;
            if (!raw[i].equals(s)) {
                all.add(s); // a percent-encoded '.' or '..' is not a dot segment: kept, so the result is not plain
                continue;
            }
            if (s.equals(".") && !last) {
                continue;
            }
            if (s.equals("..") && !last) {
                if (all.size() <= root.segments().size()) {
                    throw new IllegalArgumentException("'..' climbs out of the skill's root");
                }
                all.removeLast();
                continue;
            }
            // a trailing '.' or '..' names a directory: kept, so the result is not plain
            all.add(s);
        }
        return new Parsed(root.scheme(), List.copyOf(all), query);
    }

    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String raw : path.split("/", -1)) {
            String s = decode(raw);
            if (s.indexOf('/') >= 0 || s.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a segment decodes to '/' or NUL");
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    private static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); ) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    throw new IllegalArgumentException("a bad percent escape");
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("a bad percent escape");
                }
                bytes.write(hi * 16 + lo);
                i += 3;
            } else {
                int cp = raw.codePointAt(i);
                bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
        }
        try {
            return FileChecks.strictUtf8(bytes.toByteArray());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a segment is not UTF-8 after percent-decoding");
        }
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
