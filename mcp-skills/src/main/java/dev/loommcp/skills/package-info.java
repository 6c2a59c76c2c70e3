/**
 * The skills extension ({@code io.modelcontextprotocol/skills}, SEP-2640) for a host:
 * {@link dev.loommcp.skills.McpSkills} over one {@link dev.loommcp.McpClient}, {@link dev.loommcp.skills.HostSkills}
 * over an {@link dev.loommcp.hosts.McpServers} registry. A listing ({@link dev.loommcp.skills.SkillListing}) holds
 * validated {@link dev.loommcp.skills.SkillEntry} manifests and the entries refused
 * ({@link dev.loommcp.skills.InvalidSkillEntry});
 * nothing of a skill is fetched before it is loaded ({@link dev.loommcp.skills.LoadedSkill}); every fetched file
 * ({@link dev.loommcp.skills.SkillFile}) was checked against its entry, and a failed check throws
 * {@link dev.loommcp.skills.SkillVerificationException} naming the file and the check. Unrelated to
 * {@link dev.loommcp.McpSkillServer} (the prompts-and-resources host interface of the core).
 *
 * <p>Nulls follow the core's policy (see {@link dev.loommcp}): parameters are non-null unless documented, lookups
 * return {@link java.util.Optional}, absent JSON members are {@code @Nullable} record components.
 */
@NullMarked
package dev.loommcp.skills;

import org.jspecify.annotations.NullMarked;
