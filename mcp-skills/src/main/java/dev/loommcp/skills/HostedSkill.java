package dev.loommcp.skills;

import java.util.Objects;

/**
 * A skill of one server of an {@link dev.loommcp.hosts.McpServers} registry, as {@link HostSkills#list} names it.
 * Its identity is ({@link #server()}, {@code entry().uri()}) (SEP-2640 "Skill URIs": the host's label for the server,
 * never its self-reported name); {@link #name()} is a label for people and models, namespaced like the registry's
 * tools so that a skill of one server never shadows another's. Immutable.
 *
 * @param name   {@code server + separator + skill name}; when several skills of one server share a name, each with
 *               {@code #} and 8 hex digits of the SHA-256 of its URI appended (stable per identity, whatever the
 *               listing order)
 * @param server the server's name in the registry (the host-assigned label)
 * @param entry  the verified-shape entry the server listed
 */
public record HostedSkill(String name, String server, SkillEntry entry) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if any is {@code null}
     */
    public HostedSkill {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(entry, "entry");
    }
}
