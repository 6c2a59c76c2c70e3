package dev.loommcp.skills;

import java.time.Duration;
import java.util.List;
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
     * Looks a valid entry up by its {@code frontmatter.name}; names are labels, not identities: when several entries
     * share a name the first one is returned.
     *
     * @param name the skill's name
     * @return the entry, or empty
     */
    public Optional<SkillEntry> byName(String name) {
        return skills.stream().filter(e -> e.name().equals(name)).findFirst();
    }
}
