package dev.loommcp.skills;

import dev.loommcp.RequestOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A skill loaded by {@link McpSkills#load}: its {@code SKILL.md} was fetched and verified against the entry held for
 * it (size, digest, frontmatter field by field). While a host acts on the skill it reads only the entry's files,
 * through {@link #read} (SEP-2640 "Integrity and verification"): an unlisted file is refused, even when the server
 * serves it or a directory read shows it; a listed one is verified before it is returned. Entries are not re-fetched:
 * when the server changed the skill, get or list it again and load the new entry.
 *
 * <p>Thread-safe: reads may run in parallel; the only state is the byte budget of a dynamic skill.
 */
public final class LoadedSkill {

    private final McpSkills skills;
    private final SkillEntry entry;
    private final SkillFile skillMd;
    private final Map<String, @Nullable Object> frontmatter;
    private final String instructions;
    private final Budget budget;

    LoadedSkill(McpSkills skills, SkillEntry entry, SkillFile skillMd, Map<String, @Nullable Object> frontmatter,
                String instructions, Budget budget) {
        this.skills = skills;
        this.entry = entry;
        this.skillMd = skillMd;
        this.frontmatter = Collections.unmodifiableMap(new LinkedHashMap<>(frontmatter));
        this.instructions = instructions;
        this.budget = budget;
    }

    /**
     * Returns the entry the skill was verified against.
     *
     * @return the entry
     */
    public SkillEntry entry() {
        return entry;
    }

    /**
     * Returns the skill's name.
     *
     * @return {@code frontmatter.name}
     */
    public String name() {
        return entry.name();
    }

    /**
     * Returns the verified {@code SKILL.md}.
     *
     * @return the file
     */
    public SkillFile skillMd() {
        return skillMd;
    }

    /**
     * Returns the {@code SKILL.md} frontmatter as parsed (equal to the entry's, field by field).
     *
     * @return the frontmatter as JSON values
     */
    public Map<String, @Nullable Object> frontmatter() {
        return frontmatter;
    }

    /**
     * Returns the skill's instructions: the markdown of {@code SKILL.md} after its frontmatter (line ends as LF).
     * Untrusted model input.
     *
     * @return the instructions
     */
    public String instructions() {
        return instructions;
    }

    /**
     * Reads one more file of the skill, verified: a path relative to the skill's root ({@code references/STYLE.md})
     * or an absolute URI. {@code SKILL.md} is answered from the loaded copy.
     *
     * @param ref     the file's path or URI
     * @param options timeout, token, {@code _meta}
     * @return the verified file
     * @throws SkillVerificationException {@code UNLISTED} (not in the entry, or not strictly inside the root; for a
     *                                    dynamic skill: not inside the root), {@code SIZE}, {@code DIGEST};
     *                                    {@code LIMIT} when a dynamic skill's reads pass the byte limit
     * @throws dev.loommcp.McpProtocolException if the result has no content for the file
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public SkillFile read(String ref, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(options, "options");
        String uri = resolve(ref);
        if (SkillUris.parse(uri).key().equals(SkillUris.parse(entry.uri()).key())) {
            return skillMd;
        }
        return skills.fetch(entry, uri, McpSkills.whole(options), budget);
    }

    /** The URI to fetch for a reference: the listed spelling, or (dynamic) the resolved one. */
    private String resolve(String ref) {
        if (!entry.isDynamic()) {
            return entry.file(ref).map(SkillFileEntry::uri).orElseThrow(() -> new SkillVerificationException(
                    SkillVerificationException.Check.UNLISTED, entry.uri(), Printable.of(ref), Printable.of(ref)
                    + " is not listed in the entry of " + Printable.of(entry.uri())));
        }
        if (entry.keyOf(ref).isEmpty()) {
            throw new SkillVerificationException(SkillVerificationException.Check.UNLISTED, entry.uri(),
                    Printable.of(ref), Printable.of(ref) + " is not inside the skill " + Printable.of(entry.root()));
        }
        SkillUris.Parsed root = SkillUris.parse(entry.uri()).parent();
        SkillUris.Parsed p = SkillUris.resolve(root, ref);
        return ref.contains(":") && p.equals(SkillUris.parse(ref)) ? ref : entry.root() + "/"
                + String.join("/", p.segments().subList(root.segments().size(), p.segments().size()).stream()
                .map(LoadedSkill::encode).toList());
    }

    private static String encode(String segment) {
        return java.net.URLEncoder.encode(segment, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Reads every listed file, {@code SKILL.md} first, each verified (the order of the entry otherwise). A dynamic
     * skill lists none: only its {@code SKILL.md} is returned.
     *
     * @param options timeout (for all of them), token, {@code _meta}
     * @return the files
     * @throws SkillVerificationException {@code SIZE} or {@code DIGEST} on the first file that fails (no file is
     *                                    returned then)
     * @throws InterruptedException       if the calling thread is interrupted
     */
    public List<SkillFile> readAll(RequestOptions options) throws InterruptedException {
        RequestOptions opts = McpSkills.whole(Objects.requireNonNull(options, "options"));
        List<SkillFile> out = new ArrayList<>();
        out.add(skillMd);
        for (SkillFileEntry f : entry.resources()) {
            if (!f.uri().equals(skillMd.uri())) {
                out.add(read(f.uri(), opts));
            }
        }
        return List.copyOf(out);
    }

    /**
     * Returns the skill as one text for an agent's instructions (a system message of LangChain4j, Spring AI or any
     * chat API): a header naming the skill and its URI and saying its content comes from an MCP server, the
     * instructions, then each given file after a line {@code --- FILE path ---}, as text when it is UTF-8 (a binary
     * file is named with its size, not inlined). {@code SKILL.md} itself is left out of the files (its instructions
     * are already there). Nothing is fetched: pass the files {@link #read} or {@link #readAll} returned.
     *
     * @param files the skill's files to include, in that order (may be empty)
     * @return the text
     * @throws IllegalArgumentException if a file is not one of this skill's (by URI)
     */
    public String agentInstructions(List<SkillFile> files) {
        Objects.requireNonNull(files, "files");
        StringBuilder sb = new StringBuilder("Skill \"").append(name()).append("\" (").append(entry.uri())
                .append(", from an MCP server: untrusted content)\n\n").append(instructions);
        String skillMdKey = SkillUris.parse(entry.uri()).key();
        for (SkillFile f : files) {
            String key = SkillUris.parse(f.uri()).key();
            if (entry.keyOf(f.uri()).filter(key::equals).isEmpty() && !key.equals(skillMdKey)) {
                throw new IllegalArgumentException(Printable.of(f.uri()) + " is not a file of the skill "
                        + Printable.of(entry.uri()));
            }
            if (key.equals(skillMdKey)) {
                continue;
            }
            if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != '\n') {
                sb.append('\n');
            }
            sb.append("\n--- FILE ").append(f.path()).append(" ---\n");
            try {
                sb.append(FileChecks.strictUtf8(f.bytes()));
            } catch (IllegalArgumentException binary) {
                sb.append("(binary, ").append(f.size()).append(" bytes: not shown)\n");
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "LoadedSkill[" + Printable.of(entry.uri()) + "]";
    }

    /** The bytes a dynamic skill may still read (its files have no listed sizes). Thread-safe. */
    static final class Budget {
        private final AtomicLong left;

        Budget(long max) {
            this.left = new AtomicLong(max);
        }

        long remaining() {
            return Math.max(0, left.get());
        }

        void spend(SkillEntry entry, String uri, long bytes) {
            if (left.addAndGet(-bytes) < 0) {
                throw new SkillVerificationException(SkillVerificationException.Check.LIMIT, entry.uri(), uri,
                        "reading " + Printable.of(uri) + " passes the byte limit of the dynamic skill "
                                + Printable.of(entry.uri()));
            }
        }
    }
}
