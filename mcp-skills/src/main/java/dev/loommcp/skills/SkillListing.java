package dev.loommcp.skills;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A server's skills as {@code skills/list} gave them, every page walked (SEP-2640 "Enumeration"). A listing may be
 * empty or partial by design: it is never proof that a skill does not exist (load one by URI with
 * {@link McpSkills#get}). Immutable.
 *
 * @param skills     the valid entries, in the server's order; each URI appears once
 * @param invalid    the entries refused (invalid, or listed more than once: every copy is refused)
 * @param ttl        the server's freshness hint ({@code ttlMs} of the last page), or {@code null} when it sent none
 * @param cacheScope the server's {@code cacheScope} ({@code "public"} or {@code "private"}), or {@code null}
 */
public record SkillListing(List<SkillEntry> skills, List<InvalidSkillEntry> invalid, @Nullable Duration ttl,
                           @Nullable String cacheScope) {

    /** Copies the lists. */
    public SkillListing {
        skills = List.copyOf(skills);
        invalid = List.copyOf(invalid);
    }

    /**
     * Returns the empty listing of a server that does not declare the extension.
     *
     * @return a listing without skills and hints
     */
    public static SkillListing empty() {
        return new SkillListing(List.of(), List.of(), null, null);
    }

    /**
     * Looks a valid entry up by its {@code frontmatter.name}. Names are labels, not identities: when several entries
     * share the name the lookup is refused rather than one of them picked ({@link #named} returns them all; load one
     * by its URI).
     *
     * @param name the skill's name
     * @return the entry, or empty when no valid entry has that name
     * @throws IllegalArgumentException if several valid entries have that name, naming their URIs
     */
    public Optional<SkillEntry> byName(String name) {
        List<SkillEntry> named = named(name);
        if (named.size() > 1) {
            throw new IllegalArgumentException("the listing has " + named.size() + " skills named '"
                    + Printable.of(name) + "': choose one by its URI (" + String.join(", ", named.stream()
                    .map(e -> Printable.of(e.uri())).toList()) + ")");
        }
        return named.stream().findFirst();
    }

    /**
     * Returns every valid entry with this {@code frontmatter.name}, in the server's order.
     *
     * @param name the skill's name
     * @return the entries (empty when none has it)
     */
    public List<SkillEntry> named(String name) {
        Objects.requireNonNull(name, "name");
        return skills.stream().filter(e -> e.name().equals(name)).toList();
    }

    /**
     * Looks a valid entry up by its {@code SKILL.md} URI, compared like the extension compares URIs (scheme case and
     * percent-encoding do not matter).
     *
     * @param uri the {@code SKILL.md} URI
     * @return the entry, or empty when the listing has no valid entry for it
     */
    public Optional<SkillEntry> byUri(String uri) {
        Objects.requireNonNull(uri, "uri");
        String key;
        try {
            key = SkillUris.parse(uri).key();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return skills.stream().filter(e -> SkillUris.parse(e.uri()).key().equals(key)).findFirst();
    }
}
