/**
 * loom-mcp skills: the client (host) side of the skills extension {@code io.modelcontextprotocol/skills} (SEP-2640).
 * {@link dev.loommcp.skills.McpSkills} lists and gets a server's skills and loads one on demand, fetching its
 * {@code SKILL.md} and files only then and verifying each against the entry's size and digest and the frontmatter
 * field by field; {@link dev.loommcp.skills.HostSkills} does the same across the servers of an
 * {@link dev.loommcp.hosts.McpServers} registry (mcp-hosts is an optional dependency: needed only by HostSkills).
 * Uses the core's public API only, and snakeyaml-engine (YAML 1.2 core schema) for the frontmatter.
 */
module dev.loommcp.skills {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.core;
    // HostSkills only: an application that uses it has mcp-hosts on its path
    requires static dev.loommcp.hosts;
    requires org.snakeyaml.engine;

    exports dev.loommcp.skills;
}
