package dev.loommcp.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.it.servers.SkillsFixture;
import dev.loommcp.skills.SkillVerificationException.Check;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link HostSkills} over an {@link McpServers} registry of three skills fixtures as child processes (two serving
 * the same skills, one without the extension): skills namespaced per server, identity (server, URI), loaded on demand
 * from their own server only.
 */
@ExtendWith(LeakCheck.class)
class HostSkillsTest {

    private static final RequestOptions OPTS = RequestOptions.ofTimeout(Duration.ofSeconds(30));

    private McpServers servers;

    @BeforeEach
    void start() {
        servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("alpha", SkillsFixture.stdioCommand()))
                .add(StdioServerConfig.of("beta", SkillsFixture.stdioCommand()))
                .add(StdioServerConfig.of("plain", SkillsFixture.stdioCommand("--no-extension")))
                .clientCustomizer((config, builder) -> builder.protocolMode(ProtocolMode.LEGACY))
                .build();
    }

    @AfterEach
    void close() {
        servers.close();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> reads(String server) throws InterruptedException {
        return (Map<String, Object>) servers.server(server).client(OPTS).request("fixture/stats", Map.of(), OPTS).get("reads");
    }

    @Test
    void skillsOfEveryServerAreListedUnderNamespacedNamesAndNothingIsFetched() throws Exception {
        HostSkills skills = HostSkills.of(servers);

        var list = skills.list(OPTS);

        assertThat(list).extracting(HostedSkill::name).contains("alpha__release-notes", "beta__release-notes",
                "alpha__live-notes").noneMatch(n -> n.startsWith("plain"));
        HostedSkill a = skills.skill("alpha__release-notes").orElseThrow();
        HostedSkill b = skills.skill("beta__release-notes").orElseThrow();
        assertThat(a.entry().uri()).isEqualTo(b.entry().uri()); // same URI, two identities: (server, uri)
        assertThat(a).isNotEqualTo(b);
        assertThat(reads("alpha")).isEmpty();
        assertThat(reads("beta")).isEmpty();
    }

    @Test
    void aSkillIsLoadedFromTheServerThatListedItAndVerified() throws Exception {
        HostSkills skills = HostSkills.of(servers);

        LoadedSkill loaded = skills.load("beta__release-notes", OPTS); // lists first: the name is not known yet

        assertThat(loaded.instructions()).contains("references/STYLE.md");
        assertThat(reads("beta")).containsOnlyKeys("skill://release-notes/SKILL.md");
        assertThat(reads("alpha")).isEmpty();
        assertThatThrownBy(() -> skills.load("alpha__wrong-size", OPTS)).isInstanceOfSatisfying(
                SkillVerificationException.class, e -> assertThat(e.check()).isEqualTo(Check.SIZE))
                .hasMessageStartingWith("server 'alpha': ");
        assertThatThrownBy(() -> skills.load("alpha", "skill://frontmatter-tampered/SKILL.md", OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.FRONTMATTER));
        assertThatThrownBy(() -> skills.load("plain__release-notes", OPTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no server lists a skill");
        assertThatThrownBy(() -> skills.load("nobody", "skill://release-notes/SKILL.md", OPTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no MCP server named 'nobody'");
    }

    @Test
    void namesSharedWithinOneServerAreStablePerUriWhateverTheListingOrder() throws Exception {
        try (McpServers hostile = McpServers.newBuilder()
                .add(StdioServerConfig.of("same", SkillsFixture.stdioCommand("--hostile", "--page-size", "100")))
                .clientCustomizer((config, builder) -> builder.protocolMode(ProtocolMode.LEGACY))
                .build()) {
            HostSkills skills = HostSkills.of(hostile);
            String a = "same__x#" + HostSkills.uriTag("skill://a/x/SKILL.md");
            String b = "same__x#" + HostSkills.uriTag("skill://b/x/SKILL.md");
            assertThat(a).isNotEqualTo(b).matches("same__x#[0-9a-f]{8}");

            for (int i = 0; i < 3; i++) { // the fixture flips the two on every listing
                var list = skills.list(OPTS);
                assertThat(list).extracting(HostedSkill::name).contains(a, b).doesNotContain("same__x",
                        "same__x#2");
                assertThat(skills.skill(a).orElseThrow().entry().uri()).isEqualTo("skill://a/x/SKILL.md");
                assertThat(skills.skill(b).orElseThrow().entry().uri()).isEqualTo("skill://b/x/SKILL.md");
            }
            assertThat(skills.load(b, OPTS).entry().uri()).isEqualTo("skill://b/x/SKILL.md");
            assertThatThrownBy(() -> skills.load("same__x", OPTS)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(a).hasMessageContaining(b);
        }
    }

    @Test
    void anUnknownNameRelistsOnlyTheServerItNamesAndAStuckServerIsNotWaitedFor() throws Exception {
        try (McpServers two = McpServers.newBuilder()
                .add(StdioServerConfig.of("stuck", SkillsFixture.stdioCommand("--hang", "skills/list")))
                .add(StdioServerConfig.of("good", SkillsFixture.stdioCommand()))
                .clientCustomizer((config, builder) -> builder.protocolMode(ProtocolMode.LEGACY))
                .build()) {
            HostSkills skills = HostSkills.of(two);
            // a long deadline: had the stuck server been asked, the call would wait for all of it
            RequestOptions patient = RequestOptions.ofTimeout(Duration.ofMinutes(5));

            assertThat(skills.load("good__release-notes", patient).name()).isEqualTo("release-notes");
            assertThatThrownBy(() -> skills.load("good__nope", patient)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no server lists a skill named 'good__nope'");
            assertThat(skills.skill("good__live-notes")).isPresent();
            @SuppressWarnings("unchecked")
            Map<String, Object> calls = (Map<String, Object>) two.server("stuck").client(OPTS)
                    .request("fixture/stats", Map.of(), OPTS).get("calls");
            assertThat(calls).doesNotContainKey("skills/list");
        }
    }
}
