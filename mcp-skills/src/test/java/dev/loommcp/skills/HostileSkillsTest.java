package dev.loommcp.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.it.servers.SkillsFixture;
import dev.loommcp.skills.SkillVerificationException.Check;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link McpSkills} against the skills fixture's hostile skills ({@code --hostile}) as a child process over stdio:
 * every bad answer is refused naming the file (or skipped), never an {@link Error}, and the client stays usable.
 */
@ExtendWith(LeakCheck.class)
class HostileSkillsTest {

    private static final RequestOptions OPTS = RequestOptions.ofTimeout(Duration.ofSeconds(30));
    private static final int MIB = 1024 * 1024;

    private McpClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    private McpSkills connect(int maxMessageBytes, String... flags) throws InterruptedException {
        String[] all = new String[flags.length + 3];
        all[0] = "--hostile";
        all[1] = "--page-size";
        all[2] = "100";
        System.arraycopy(flags, 0, all, 3, flags.length);
        client = McpClient.newBuilder(StdioTransport.newBuilder(SkillsFixture.stdioCommand(all))
                        .maxMessageBytes(maxMessageBytes).build())
                .protocolMode(ProtocolMode.LEGACY).requestTimeout(Duration.ofSeconds(30)).build();
        client.connect();
        return McpSkills.newBuilder(client).maxMessageBytes(maxMessageBytes).build();
    }

    private McpSkills connect(String... flags) throws InterruptedException {
        return connect(McpSkills.DEFAULT_MAX_MESSAGE_BYTES, flags);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> reads() throws InterruptedException {
        return (Map<String, Object>) client.request("fixture/stats", Map.of(), OPTS).get("reads");
    }

    private static SkillEntry named(SkillListing listing, String name) {
        return listing.byName(name).orElseThrow();
    }

    @Test
    void deeplyNestedOrAliasExpandedFrontmatterIsAFrontmatterRefusalAndTheClientStaysUsable() throws Exception {
        McpSkills skills = connect();
        SkillListing listing = skills.list(OPTS);

        assertThatThrownBy(() -> skills.load(named(listing, "deep-yaml"), OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.FRONTMATTER))
                .hasMessageContaining("nested deeper than 64 levels");
        assertThatThrownBy(() -> skills.load(named(listing, "alias-bomb"), OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.FRONTMATTER))
                .hasMessageContaining("aliases expand");
        // an integer key is taken as its text, like the TypeScript client
        assertThat(skills.load(named(listing, "int-key"), OPTS).frontmatter()).containsEntry("1", "v");
    }

    @Test
    void aFileTooLargeForOneMessageIsRefusedBeforeTheReadAndFitsOnceBothLimitsAreRaised() throws Exception {
        McpSkills skills = connect();
        LoadedSkill big = skills.load(named(skills.list(OPTS), "big-blob"), OPTS);

        assertThatThrownBy(() -> big.read("assets/big.bin", OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class, e -> {
                    assertThat(e.check()).isEqualTo(Check.LIMIT);
                    assertThat(e.fileUri()).isEqualTo("skill://big-blob/assets/big.bin");
                })
                .hasMessageContaining("13631488 bytes").hasMessageContaining("16777216")
                .hasMessageContaining("maxMessageBytes");
        assertThat(reads()).doesNotContainKey("skill://big-blob/assets/big.bin");
        assertThat(skills.list(OPTS).skills()).isNotEmpty(); // still connected
        client.close();

        McpSkills raised = connect(24 * MIB);
        LoadedSkill again = raised.load(named(raised.list(OPTS), "big-blob"), OPTS);
        assertThat(again.read("assets/big.bin", OPTS).size()).isEqualTo(13L * MIB);
    }

    @Test
    void aListedFileTheServerDoesNotHaveIsAnRpcErrorNamingTheFile() throws Exception {
        McpSkills skills = connect();
        LoadedSkill gone = skills.load(named(skills.list(OPTS), "gone-file"), OPTS);

        assertThatThrownBy(() -> gone.read("references/GONE.md", OPTS))
                .isInstanceOfSatisfying(SkillReadException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32002);
                    assertThat(e.fileUri()).isEqualTo("skill://gone-file/references/GONE.md");
                    assertThat(e.skillUri()).isEqualTo("skill://gone-file/SKILL.md");
                })
                .isInstanceOf(McpRpcException.class)
                .hasMessageContaining("skill://gone-file/references/GONE.md").hasMessageContaining("-32002");
    }

    @Test
    void aTimeoutNamesTheFile() throws Exception {
        McpSkills skills = connect("--hang", "resources/read");
        SkillEntry entry = named(skills.list(OPTS), "rel-refs");

        assertThatThrownBy(() -> skills.load(entry, RequestOptions.ofTimeout(Duration.ofMillis(500))))
                .isInstanceOf(McpTimeoutException.class).hasMessageContaining("skill://rel-refs/SKILL.md");
    }

    @Test
    void mimeStyleBase64IsAContentRefusalNotASizeOne() throws Exception {
        McpSkills skills = connect();
        LoadedSkill mime = skills.load(named(skills.list(OPTS), "mime-blob"), OPTS);

        assertThatThrownBy(() -> mime.read("data.bin", OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.CONTENT))
                .hasMessageContaining("skill://mime-blob/data.bin").hasMessageContaining("line breaks");
    }

    @Test
    void anEntryWithAFileThatIsAlsoADirectoryIsRefusedInTheListing() throws Exception {
        SkillListing listing = connect().list(OPTS);

        assertThat(listing.byName("clash")).isEmpty();
        assertThat(listing.invalid()).anySatisfy(i -> {
            assertThat(i.uri()).isEqualTo("skill://clash/SKILL.md");
            assertThat(i.reason()).contains("also the directory");
        });
    }

    @Test
    void byNameRefusesANameTwoSkillsShare() throws Exception {
        SkillListing listing = connect().list(OPTS);

        assertThat(listing.named("x")).extracting(SkillEntry::uri).containsExactlyInAnyOrder("skill://a/x/SKILL.md",
                "skill://b/x/SKILL.md");
        assertThatThrownBy(() -> listing.byName("x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("skill://a/x/SKILL.md").hasMessageContaining("skill://b/x/SKILL.md");
        assertThat(listing.byUri("SKILL://a/x/SKILL.md")).get().extracting(SkillEntry::uri)
                .isEqualTo("skill://a/x/SKILL.md");
        assertThat(listing.byUri("skill://c/x/SKILL.md")).isEmpty();
        assertThat(listing.byName("nope")).isEmpty();
    }

    @Test
    void relativeReferencesResolveLikeFilePathsWithinTheRoot() throws Exception {
        McpSkills skills = connect();
        LoadedSkill loaded = skills.load(named(skills.list(OPTS), "rel-refs"), OPTS);

        for (String ref : new String[] {"./references/A.md", "references/../references/A.md",
                "references/./A.md"}) {
            assertThat(loaded.read(ref, OPTS).uri()).as(ref).isEqualTo("skill://rel-refs/references/A.md");
        }
        for (String ref : new String[] {"../rel-refs/references/A.md", "references/../../x/SKILL.md",
                "references/.."}) {
            assertThatThrownBy(() -> loaded.read(ref, OPTS)).as(ref)
                    .isInstanceOfSatisfying(SkillVerificationException.class,
                            e -> assertThat(e.check()).isEqualTo(Check.UNLISTED));
        }
    }

    @Test
    void anExtensionDeclaredAsTrueHasTheWrongShape() throws Exception {
        McpSkills skills = connect("--extension-true");

        assertThat(skills.isSupported()).isFalse();
        assertThat(skills.unsupportedReason()).get().asString().contains("as true").contains("wrong shape");
        assertThatThrownBy(() -> skills.get("skill://rel-refs/SKILL.md", OPTS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("wrong shape");
        client.close();
        assertThat(connect().unsupportedReason()).isEmpty();
    }

    @Test
    void anEntryThisViewDidNotListIsConfirmedWithSkillsGetAndRefusedWhenTheServerHasAnother() throws Exception {
        McpSkills skills = connect();
        SkillEntry listed = named(skills.list(OPTS), "rel-refs");
        // the same entry made by hand (stored, say): confirmed with skills/get, then loaded
        SkillEntry copy = new SkillEntry(listed.uri(), listed.frontmatter(), listed.resources(), listed.meta());
        McpSkills fresh = McpSkills.of(client);
        assertThat(fresh.load(copy, OPTS).name()).isEqualTo("rel-refs");

        // an entry this server never listed (another server's): refused before any read
        SkillEntry foreign = SkillEntry.dynamic("skill://rel-refs/SKILL.md", Map.of("name", "rel-refs",
                "description", "Another server's"), null);
        client.request("fixture/reset", Map.of(), OPTS);
        assertThatThrownBy(() -> fresh.load(foreign, OPTS)).isInstanceOfSatisfying(SkillVerificationException.class,
                e -> assertThat(e.check()).isEqualTo(Check.INVALID_ENTRY)).hasMessageContaining("not listed by this");
        assertThat(reads()).isEmpty();
    }
}
