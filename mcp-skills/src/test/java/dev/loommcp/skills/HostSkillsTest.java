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
                SkillVerificationException.class, e -> assertThat(e.check()).isEqualTo(Check.SIZE));
        assertThatThrownBy(() -> skills.load("alpha", "skill://frontmatter-tampered/SKILL.md", OPTS))
                .isInstanceOfSatisfying(SkillVerificationException.class,
                        e -> assertThat(e.check()).isEqualTo(Check.FRONTMATTER));
        assertThatThrownBy(() -> skills.load("plain__release-notes", OPTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no server lists a skill");
        assertThatThrownBy(() -> skills.load("nobody", "skill://release-notes/SKILL.md", OPTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no MCP server named 'nobody'");
    }
}
