package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.InProcessCli.Run;
import dev.loommcp.it.servers.SkillsFixture;
import dev.loommcp.testing.LeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp skills}, {@code mcp skill get} and {@code mcp skill load} through {@link Main#run} against the skills
 * fixture ({@code test-servers/skills-fixture.mjs}) as a child process over stdio: listing, an entry, a load that
 * prints or writes the verified files, every refusal with exit 7, and a write that would leave {@code --to}.
 */
@ExtendWith(LeakCheck.class)
class CliSkillsTest {

    private final Map<String, String> env = new HashMap<>();

    @TempDir
    Path dir;

    private Run skills(String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", String.join(" ", SkillsFixture.stdioCommand().stream()
                .map(ShellWords::quote).toList()), "--protocol", "legacy"));
        all.addAll(List.of(args));
        return InProcessCli.run(env::get, all.toArray(String[]::new));
    }

    @Test
    void skillsListsTheValidEntriesAndNamesTheRefusedOneOnStderr() {
        Run r = skills("skills");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("NAME", "release-notes", "skill://release-notes/SKILL.md", "dynamic",
                "frontmatter-tampered").doesNotContain("Bad_Name");
        assertThat(r.err()).contains("refused skill entry skill://Bad_Name/SKILL.md", "frontmatter.name");

        Run json = skills("--json", "skills");
        assertThat(json.code()).isZero();
        assertThat(json.out()).contains("\"skills\"", "\"invalid\"", "\"digest\"");
    }

    @Test
    void skillGetShowsTheEntryByNameOrUriAndAnUnknownNameIsAUsageError() {
        Run byName = skills("skill", "get", "release-notes");
        assertThat(byName.code()).as(byName.err()).isZero();
        assertThat(byName.out()).contains("description: Draft release notes", "references/STYLE.md", "sha256:");
        Run byUri = skills("skill", "get", "skill://wrong-size/SKILL.md");
        assertThat(byUri.code()).as(byUri.err()).isZero();
        assertThat(byUri.out()).contains("name:        wrong-size");

        Run unknown = skills("skill", "get", "nope");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("no valid skill named 'nope'");
        Run unknownUri = skills("skill", "get", "skill://nope/SKILL.md");
        assertThat(unknownUri.code()).isEqualTo(4);
    }

    @Test
    void skillLoadPrintsTheInstructionsOrRefusesWithExit7NamingTheCheck() {
        Run ok = skills("skill", "load", "live-notes");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("Live body.");
        assertThat(ok.err()).contains("dynamic");

        for (String[] c : new String[][] {{"digest-tampered", "(DIGEST)"}, {"wrong-size", "(SIZE)"},
                {"frontmatter-tampered", "(FRONTMATTER)"}, {"release-notes", "(DIGEST)"}}) {
            Run refused = skills("skill", "load", c[0], "--to", dir.resolve(c[0]).toString());
            assertThat(refused.code()).as(c[0] + ": " + refused.err()).isEqualTo(7);
            assertThat(refused.err()).contains("skill refused " + c[1]);
            assertThat(refused.out()).isEmpty();
            // nothing is written unless every file passed (release-notes: TAMPERED.md fails after three good ones)
            assertThat(dir.resolve(c[0]).resolve("SKILL.md")).doesNotExist();
        }
    }

    @Test
    void aServerWithoutTheExtensionHasNoSkills() {
        List<String> cmd = new ArrayList<>(SkillsFixture.stdioCommand("--no-extension"));
        String stdio = String.join(" ", cmd.stream().map(ShellWords::quote).toList());
        Run list = InProcessCli.run(env::get, "--stdio", stdio, "skills");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).contains("does not offer skills");
        Run load = InProcessCli.run(env::get, "--stdio", stdio, "skill", "load", "release-notes");
        assertThat(load.code()).isEqualTo(2);
        assertThat(load.err()).contains("declares no io.modelcontextprotocol/skills extension");
    }

    @Test
    void skillLoadToWritesTheVerifiedFilesOfASkillWhoseFilesAllPass() throws Exception {
        Run r = skills("skill", "load", "live-notes", "--to", dir.resolve("out").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(dir.resolve("out/SKILL.md"))).contains("name: live-notes");
        assertThat(r.out()).contains("SKILL.md");
    }

    @Test
    void aFileWhosePathWouldLeaveTheDirectoryIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path target = dir.resolve("to");
        Files.createDirectories(target);
        Files.createSymbolicLink(target.resolve("references"), dir);
        // SkillFile paths never hold '..' (the entry rules refuse them): a link inside DIR is the way out
        Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        files.put("SKILL.md", new byte[] {1});
        files.put("references/STYLE.md", new byte[] {2});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SkillCommands.write(target, files))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("would leave --to");
        assertThat(target.resolve("SKILL.md")).doesNotExist();
        assertThat(dir.resolve("STYLE.md")).doesNotExist();
        files.remove("references/STYLE.md");
        files.put("../escape.md", new byte[] {3});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SkillCommands.write(target, files))
                .hasMessageContaining("would leave --to");
        assertThat(dir.resolve("escape.md")).doesNotExist();
    }
}
