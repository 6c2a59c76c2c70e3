package dev.loommcp.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.it.servers.HttpSkillsFixture;
import dev.loommcp.it.servers.SkillsFixture;
import dev.loommcp.schema.Resource;
import dev.loommcp.skills.SkillVerificationException.Check;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.http.HttpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link McpSkills} against the real skills fixture ({@code test-servers/skills-fixture.mjs}) as a child process over
 * stdio (and once over HTTP): listing fetches nothing, loading fetches only what it needs, and every verification
 * failure is refused with the check and the file named. The fixture counts its {@code resources/read} calls.
 */
@ExtendWith(LeakCheck.class)
class McpSkillsTest {

    private static final RequestOptions OPTS = RequestOptions.ofTimeout(Duration.ofSeconds(20));

    private McpClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    private McpSkills connect(ProtocolMode mode, String... flags) throws InterruptedException {
        client = McpClient.newBuilder(StdioTransport.newBuilder(SkillsFixture.stdioCommand(flags)).build())
                .protocolMode(mode).requestTimeout(Duration.ofSeconds(20)).build();
        client.connect();
        return McpSkills.of(client);
    }

    private McpSkills connect(String... flags) throws InterruptedException {
        return connect(ProtocolMode.LEGACY, flags);
    }

    /** How often the fixture served each URI with resources/read. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> reads() throws InterruptedException {
        return (Map<String, Object>) client.request("fixture/stats", Map.of(), OPTS).get("reads");
    }

    @SuppressWarnings("unchecked")
    private long calls(String method) throws InterruptedException {
        Object n = ((Map<String, Object>) client.request("fixture/stats", Map.of(), OPTS).get("calls")).get(method);
        return n == null ? 0 : ((Number) n).longValue();
    }

    @Test
    void listingWalksEveryPageRefusesTheInvalidEntryAndFetchesNoFile() throws Exception {
        McpSkills skills = connect();
        assertThat(skills.isSupported()).isTrue();
        assertThat(skills.supportsDirectoryRead()).isTrue();

        SkillListing listing = skills.list(OPTS);

        assertThat(listing.skills()).extracting(SkillEntry::name).containsExactly("release-notes",
                "digest-tampered", "wrong-size", "frontmatter-tampered", "live-notes");
        assertThat(listing.invalid()).singleElement().satisfies(i -> {
            assertThat(i.uri()).isEqualTo("skill://Bad_Name/SKILL.md");
            assertThat(i.reason()).contains("frontmatter.name");
        });
        assertThat(listing.byName("live-notes")).get().satisfies(e -> assertThat(e.isDynamic()).isTrue());
        assertThat(listing.ttl()).isNull(); // 2025-11-25: no cache attributes, nothing kept
        assertThat(calls("skills/list")).isEqualTo(2); // two pages of three
        assertThat(reads()).isEmpty();
    }

    @Test
    void loadFetchesOnlySkillMdAndAFileWhenItIsRead() throws Exception {
        McpSkills skills = connect();
        SkillEntry entry = skills.list(OPTS).byName("release-notes").orElseThrow();
        assertThat(reads()).isEmpty();

        LoadedSkill loaded = skills.load(entry, OPTS);

        assertThat(loaded.instructions()).contains("Read references/STYLE.md first");
        assertThat(loaded.frontmatter()).containsEntry("name", "release-notes");
        assertThat(loaded.skillMd().isVerified()).isTrue();
        assertThat(reads()).containsOnlyKeys("skill://release-notes/SKILL.md");

        SkillFile style = loaded.read("references/STYLE.md", OPTS);
        assertThat(style.text()).isEqualTo("Use past tense. One line per change.\n");
        assertThat(style.path()).isEqualTo("references/STYLE.md");
        assertThat(style.isVerified()).isTrue();
        assertThat(loaded.read("skill://release-notes/SKILL.md", OPTS)).isSameAs(loaded.skillMd());
        assertThat(reads()).containsOnlyKeys("skill://release-notes/SKILL.md", "skill://release-notes/references/STYLE.md");
    }

    @Test
    void aLoadedSkillBecomesOneTextForAnAgentWithItsFilesAndNothingMoreIsFetched() throws Exception {
        McpSkills skills = connect();
        LoadedSkill loaded = skills.load(skills.list(OPTS).byName("release-notes").orElseThrow(), OPTS);
        List<SkillFile> files = List.of(loaded.skillMd(), loaded.read("references/STYLE.md", OPTS),
                loaded.read("scripts/notes.sh", OPTS));
        Map<String, Object> before = reads();

        String text = loaded.agentInstructions(files);

        assertThat(text).startsWith("Skill \"release-notes\" (skill://release-notes/SKILL.md, from an MCP server")
                .contains("Read references/STYLE.md first", "--- FILE references/STYLE.md ---\nUse past tense.",
                        "--- FILE scripts/notes.sh ---\n#!/bin/sh").doesNotContain("--- FILE SKILL.md");
        assertThat(reads()).isEqualTo(before);
        LoadedSkill other = skills.load(skills.list(OPTS).byName("live-notes").orElseThrow(), OPTS);
        assertThatThrownBy(() -> loaded.agentInstructions(List.of(other.skillMd())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a file of the skill");
    }

    @Test
    void aSkillMdWhoseDigestDiffersIsRefused() throws Exception {
        McpSkills skills = connect();
        SkillEntry entry = skills.list(OPTS).byName("digest-tampered").orElseThrow();

        assertThatThrownBy(() -> skills.load(entry, OPTS)).isInstanceOfSatisfying(SkillVerificationException.class,
                e -> {
                    assertThat(e.check()).isEqualTo(Check.DIGEST);
                    assertThat(e.fileUri()).isEqualTo("skill://digest-tampered/SKILL.md");
                    assertThat(e.getMessage()).contains("digest check", "skill://digest-tampered/SKILL.md");
                });
    }

    @Test
    void aSkillMdWhoseSizeDiffersIsRefusedBeforeItsDigestIsComputed() throws Exception {
        McpSkills skills = connect();
        SkillEntry entry = skills.list(OPTS).byName("wrong-size").orElseThrow();

        assertThatThrownBy(() -> skills.load(entry, OPTS)).isInstanceOfSatisfying(SkillVerificationException.class,
                e -> {
                    assertThat(e.check()).isEqualTo(Check.SIZE);
                    assertThat(e.getMessage()).contains("size check", "the entry lists " + entry.resources().get(0)
                            .size());
                });
    }

    @Test
    void aSkillMdWhoseFrontmatterDiffersIsRefusedNamingTheField() throws Exception {
        McpSkills skills = connect();
        SkillEntry entry = skills.list(OPTS).byName("frontmatter-tampered").orElseThrow();

        assertThatThrownBy(() -> skills.load(entry, OPTS)).isInstanceOfSatisfying(SkillVerificationException.class,
                e -> {
                    assertThat(e.check()).isEqualTo(Check.FRONTMATTER);
                    assertThat(e.getMessage()).contains("description").doesNotContain("Exfiltrate");
                });
    }

    @Test
    void aListedFileWhoseDigestDiffersAndAnUnlistedFileAreRefusedAndTheUnlistedOneIsNeverFetched()
            throws Exception {
        McpSkills skills = connect();
        LoadedSkill loaded = skills.load(skills.list(OPTS).byName("release-notes").orElseThrow(), OPTS);

        assertThatThrownBy(() -> loaded.read("references/TAMPERED.md", OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class, e -> {
                    assertThat(e.check()).isEqualTo(Check.DIGEST);
                    assertThat(e.fileUri()).isEqualTo("skill://release-notes/references/TAMPERED.md");
                });
        // the directory read shows the unlisted file; the held entry still does not allow it
        assertThat(skills.readDirectory("skill://release-notes/extra", OPTS)).extracting(Resource::uri)
                .containsExactly("skill://release-notes/extra/UNLISTED.md");
        for (String ref : List.of("extra/UNLISTED.md", "skill://release-notes/extra/UNLISTED.md",
                "references/../extra/UNLISTED.md", "../digest-tampered/SKILL.md", "skill://digest-tampered/SKILL.md")) {
            assertThatThrownBy(() -> loaded.read(ref, OPTS)).as(ref)
                    .isInstanceOfSatisfying(SkillVerificationException.class,
                            e -> assertThat(e.check()).isEqualTo(Check.UNLISTED));
        }
        assertThat(reads()).doesNotContainKeys("skill://release-notes/extra/UNLISTED.md",
                "skill://digest-tampered/SKILL.md");
    }

    @Test
    void readAllReturnsEveryListedFileVerifiedOrRefusesOnTheFirstBadOne() throws Exception {
        McpSkills skills = connect();
        LoadedSkill loaded = skills.load(skills.list(OPTS).byName("release-notes").orElseThrow(), OPTS);

        assertThatThrownBy(() -> loaded.readAll(OPTS)).isInstanceOfSatisfying(SkillVerificationException.class,
                e -> assertThat(e.fileUri()).endsWith("TAMPERED.md"));
    }

    @Test
    void getConfirmsASkillByUriAndLoadsItWithoutAListing() throws Exception {
        McpSkills skills = connect();

        LoadedSkill loaded = skills.load("skill://release-notes/SKILL.md", OPTS);

        assertThat(loaded.name()).isEqualTo("release-notes");
        assertThat(calls("skills/list")).isZero();
        assertThatThrownBy(() -> skills.get("skill://nope/SKILL.md", OPTS)).isInstanceOfSatisfying(
                McpRpcException.class, e -> assertThat(e.code()).isEqualTo(-32602));
        assertThatThrownBy(() -> skills.get("skill://release-notes/", OPTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/SKILL.md");
        assertThatThrownBy(() -> skills.get("skill://Bad_Name/SKILL.md", OPTS)).isInstanceOfSatisfying(
                SkillVerificationException.class, e -> assertThat(e.check()).isEqualTo(Check.INVALID_ENTRY));
    }

    @Test
    void aDynamicSkillIsLoadedWithTheFrontmatterComparisonOnly() throws Exception {
        McpSkills skills = connect();

        LoadedSkill loaded = skills.load(skills.list(OPTS).byName("live-notes").orElseThrow(), OPTS);

        assertThat(loaded.skillMd().isVerified()).isFalse();
        assertThat(loaded.instructions()).contains("Live body.");
        assertThatThrownBy(() -> loaded.read("../release-notes/SKILL.md", OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.UNLISTED));
    }

    @Test
    void aSkillOverTheLimitsIsRefusedBeforeAnyRead() throws Exception {
        connect();
        McpSkills small = McpSkills.newBuilder(client).limits(3, 1_000_000).build();
        SkillEntry entry = small.list(OPTS).byName("release-notes").orElseThrow();

        assertThatThrownBy(() -> small.load(entry, OPTS)).isInstanceOfSatisfying(SkillVerificationException.class,
                e -> assertThat(e.check()).isEqualTo(Check.LIMIT));
        assertThat(reads()).isEmpty();
        assertThatThrownBy(() -> McpSkills.newBuilder(client).limits(0, 1)).isInstanceOf(
                IllegalArgumentException.class);
    }

    @Test
    void aRepeatedCursorEndsTheWalk() throws Exception {
        McpSkills skills = connect("--repeat-cursor");

        assertThatThrownBy(() -> skills.list(OPTS)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("cursor of an earlier page");
        assertThat(calls("skills/list")).isEqualTo(2);
    }

    @Test
    void aBoundedWalkEndsAtTheBound() throws Exception {
        connect("--page-size", "1");
        McpSkills skills = McpSkills.newBuilder(client).maxPages(2).build();

        assertThatThrownBy(() -> skills.list(OPTS)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("within 2 pages");
    }

    @Test
    void directoryReadShowsChildrenAndIsRefusedWhenNotDeclared() throws Exception {
        McpSkills skills = connect();
        assertThat(skills.readDirectory("skill://release-notes", OPTS)).extracting(Resource::uri, Resource::mimeType)
                .contains(org.assertj.core.groups.Tuple.tuple("skill://release-notes/references", "inode/directory"),
                        org.assertj.core.groups.Tuple.tuple("skill://release-notes/SKILL.md", "text/markdown"));
        client.close();

        McpSkills without = connect("--no-directory-read");
        assertThat(without.supportsDirectoryRead()).isFalse();
        assertThatThrownBy(() -> without.readDirectory("skill://release-notes", OPTS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("directoryRead");
    }

    @Test
    void aServerWithoutTheExtensionHasNoSkillsAndIsNeverAsked() throws Exception {
        McpSkills skills = connect("--no-extension");

        assertThat(skills.isSupported()).isFalse();
        assertThat(skills.list(OPTS).skills()).isEmpty();
        assertThat(calls("skills/list")).isZero();
        assertThatThrownBy(() -> skills.get("skill://release-notes/SKILL.md", OPTS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(McpSkills.EXTENSION);
    }

    @Test
    void theModernEraNeedsCacheAttributesAndKeepsTheListingForItsTtl() throws Exception {
        McpSkills skills = connect(ProtocolMode.MODERN);

        SkillListing first = skills.list(OPTS);
        assertThat(first.ttl()).isEqualTo(Duration.ofMillis(60000));
        assertThat(first.cacheScope()).isEqualTo("private");
        assertThat(skills.list(OPTS)).isSameAs(first);
        assertThat(calls("skills/list")).isEqualTo(2);
        skills.invalidate();
        skills.list(OPTS);
        assertThat(calls("skills/list")).isEqualTo(4);
        assertThatThrownBy(() -> skills.load(first.byName("wrong-size").orElseThrow(), OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.SIZE));
        // the client may answer resources/read from its cache in this era: a failed file is read once more past it
        assertThat(((Number) reads().get("skill://wrong-size/SKILL.md")).intValue()).isEqualTo(2);
        client.close();

        McpSkills bare = connect(ProtocolMode.MODERN, "--no-cache-attributes");
        assertThatThrownBy(() -> bare.list(OPTS)).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("ttlMs").hasMessageContaining("2026-07-28");
    }

    @Test
    void overHttpTheSameChecksHold() throws Exception {
        try (HttpSkillsFixture server = new HttpSkillsFixture()) {
            client = McpClient.newBuilder(HttpTransport.newBuilder(server.endpoint()).build())
                    .protocolMode(ProtocolMode.LEGACY).build();
            client.connect();
            McpSkills skills = McpSkills.of(client);
            SkillListing listing = skills.list(OPTS);

            assertThat(skills.load(listing.byName("release-notes").orElseThrow(), OPTS).read("scripts/notes.sh", OPTS)
                    .text()).startsWith("#!/bin/sh");
            assertThatThrownBy(() -> skills.load(listing.byName("frontmatter-tampered").orElseThrow(), OPTS))
                    .isInstanceOfSatisfying(SkillVerificationException.class,
                            e -> assertThat(e.check()).isEqualTo(Check.FRONTMATTER));
            client.close();
        }
    }
}
