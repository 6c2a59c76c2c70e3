package dev.loommcp.skills;

import org.jspecify.annotations.Nullable;

/**
 * A {@code skills/list} entry this client refused (SEP-2640 "Resources" and the entry rules the conformance suite and
 * the TypeScript client check): it is never loaded. Kept so a host can tell the user what a server offered and why it
 * is not usable. Immutable.
 *
 * @param uri    the entry's {@code uri} when it had a string one, else {@code null}
 * @param reason what was wrong, naming the member (never a file's content)
 */
public record InvalidSkillEntry(@Nullable String uri, String reason) {
}
