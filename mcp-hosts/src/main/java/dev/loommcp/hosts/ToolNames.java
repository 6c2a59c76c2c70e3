package dev.loommcp.hosts;

import dev.loommcp.schema.Tool;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Names a model accepts for namespaced tools. Chat APIs take tool names matching {@code ^[a-zA-Z0-9_-]{1,64}$}; a
 * namespaced name {@code server + separator + tool} that matches is kept as it is. Any other is made to fit: each
 * character outside {@code [a-zA-Z0-9_-]} (a code point: a letter of another script, a space, a dot) becomes
 * {@code _}; when that is longer than 64 characters it is cut to 55 and {@code _} plus 8 hex digits of the SHA-256 of
 * the full namespaced name (UTF-8) are appended. When two tools would get the same name, every one whose name was
 * changed gets the hashed form (a name that needed no change keeps it); should hashed names still meet (a 32-bit
 * collision), the later ones in the order of their full names hash {@code full + "#" + k} for k = 1, 2, ....
 *
 * <p>So a name depends only on the set of tools named together, never on their order or on timing: the same servers
 * with the same tools give the same names in every run, and a name changes only when another tool that would collide
 * with it appears. Stateless.
 */
final class ToolNames {

    /** The longest name a model accepts. */
    static final int MAX = 64;
    private static final int HASH_CHARS = 8;

    /** The registry's logger (its WARNINGs keep the name they had in {@code HostedServer}). */
    private static final System.Logger HOSTS_LOG = System.getLogger(HostedServer.class.getName());

    private ToolNames() {
    }

    /**
     * Names each tool.
     *
     * @param fullNames the tools' full namespaced names, unique
     * @return full name to the name a model accepts, in the order given; collision-free
     */
    static Map<String, String> assign(List<String> fullNames) {
        Map<String, String> names = new LinkedHashMap<>();
        Map<String, Boolean> changed = new HashMap<>();
        for (String full : fullNames) {
            String sanitized = sanitize(full);
            changed.put(full, !(sanitized.equals(full) && sanitized.length() <= MAX));
            names.put(full, sanitized.length() <= MAX ? sanitized : hashed(full, 0));
        }
        Map<String, Integer> salt = new HashMap<>();
        for (int round = 0; round < 64; round++) {
            Map<String, List<String>> byName = new HashMap<>();
            names.forEach((full, name) -> byName.computeIfAbsent(name, k -> new ArrayList<>()).add(full));
            boolean clash = false;
            for (List<String> group : byName.values()) {
                if (group.size() < 2) {
                    continue;
                }
                clash = true;
                group.sort(null);
                // a name that needed no change keeps it; of the hashed ones the first in full-name order keeps its
                // hash, the later ones take the next salt; a changed name not hashed yet takes its hash
                boolean taken = group.stream().anyMatch(full -> !changed.get(full));
                for (String full : group) {
                    if (!changed.get(full)) {
                        continue;
                    }
                    int k = salt.getOrDefault(full, 0);
                    if (!names.get(full).equals(hashed(full, k))) {
                        names.put(full, hashed(full, k));
                    } else if (taken) {
                        salt.put(full, k + 1);
                        names.put(full, hashed(full, k + 1));
                    } else {
                        taken = true;
                    }
                }
            }
            if (!clash) {
                return names;
            }
        }
        throw new IllegalStateException("tool names still collide after 64 rounds");
    }

    /** Every code point outside {@code [a-zA-Z0-9_-]} as {@code _}. */
    static String sanitize(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(c -> sb.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-')
                ? (char) c : '_'));
        return sb.toString();
    }

    /** The sanitized name cut to fit, {@code _}, and 8 hex digits of SHA-256 of the full name (and salt). */
    static String hashed(String full, int salt) {
        String sanitized = sanitize(full);
        String prefix = sanitized.substring(0, Math.min(sanitized.length(), MAX - HASH_CHARS - 1));
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest((salt == 0 ? full : full + "#" + salt)
                    .getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
        return prefix + "_" + HexFormat.of().formatHex(digest).substring(0, HASH_CHARS);
    }

    /**
     * The tools a model may be offered, from a server's listing: a tool without a name, one whose name holds a
     * control character (a line break, a NUL, ...), and every later tool of a name listed before are left out, with
     * one WARNING naming the server and how many of each (never the names: they came from the server), on the
     * registry's logger. Stateless and thread-safe.
     *
     * @param server the server's name, for the WARNING
     * @param listed the server's tools as listed
     * @return the tools to keep, in their order (unmodifiable)
     */
    static List<Tool> offerable(String server, List<Tool> listed) {
        List<Tool> kept = new ArrayList<>(listed.size());
        Set<String> names = new HashSet<>();
        int unnamed = 0;
        int control = 0;
        int duplicates = 0;
        for (Tool t : listed) {
            String name = t.name();
            if (name == null || name.isEmpty()) {
                unnamed++;
            } else if (name.codePoints().anyMatch(ToolNames::isControl)) {
                control++;
            } else if (!names.add(name)) {
                duplicates++;
            } else {
                kept.add(t);
            }
        }
        if (kept.size() < listed.size()) {
            HOSTS_LOG.log(System.Logger.Level.WARNING, "MCP server ''{0}'' listed tools the registry leaves out: {1} without "
                    + "a name, {2} with a control character in the name, {3} listed again under a name given "
                    + "before (the first is kept)", server, unnamed, control, duplicates);
        }
        return List.copyOf(kept);
    }

    private static boolean isControl(int cp) {
        int type = Character.getType(cp);
        return Character.isISOControl(cp) || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }
}
