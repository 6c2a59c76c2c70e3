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
        return fixture(List.of(), args);
    }

    private Run fixture(List<String> flags, String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", String.join(" ", SkillsFixture.stdioCommand(
                flags.toArray(String[]::new)).stream().map(ShellWords::quote).toList()), "--protocol", "legacy"));
        all.addAll(List.of(args));
        return InProcessCli.run(env::get, all.toArray(String[]::new));
    }

    private Run hostile(String... args) {
        return fixture(List.of("--hostile", "--page-size", "100"), args);
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
        assertThat(load.err()).contains("does not declare the extension io.modelcontextprotocol/skills");
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

    @Test
    void aFileThatIsAlsoADirectoryIsRefusedBeforeAnythingIsWrittenAndAFailedWriteLeavesNothing() throws Exception {
        Path target = dir.resolve("new");
        Map<String, byte[]> clash = new java.util.LinkedHashMap<>();
        clash.put("SKILL.md", new byte[] {1});
        clash.put("x", new byte[] {2});
        clash.put("x/y", new byte[] {3});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SkillCommands.write(target, clash))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x' is a file and also the"
                        + " directory of 'x/y'");
        Map<String, byte[]> below = new java.util.LinkedHashMap<>();
        below.put("SKILL.md", new byte[] {1});
        below.put("SKILL.md/x", new byte[] {2});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SkillCommands.write(target, below))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("also the directory");

        // a write that fails half way (a name too long for the file system) leaves neither files nor the directory
        Map<String, byte[]> tooLong = new java.util.LinkedHashMap<>();
        tooLong.put("SKILL.md", new byte[] {1});
        tooLong.put("references/" + "n".repeat(300) + ".md", new byte[] {2});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SkillCommands.write(target, tooLong))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("File name too long");
        try (var left = Files.list(dir)) {
            assertThat(left.toList()).isEmpty();
        }

        // into an existing directory: its other files stay, the skill's replace theirs, no temporary is left
        Files.createDirectories(target);
        Files.writeString(target.resolve("mine.txt"), "mine");
        Files.writeString(target.resolve("SKILL.md"), "old");
        Map<String, byte[]> ok = new java.util.LinkedHashMap<>();
        ok.put("SKILL.md", "new".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ok.put("references/A.md", "a".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        SkillCommands.write(target, ok);
        assertThat(Files.readString(target.resolve("SKILL.md"))).isEqualTo("new");
        assertThat(Files.readString(target.resolve("mine.txt"))).isEqualTo("mine");
        try (var files = Files.list(target)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactlyInAnyOrder("mine.txt",
                    "SKILL.md", "references");
        }
    }

    @Test
    void aWriteErrorSaysWhy() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Run r = skills("skill", "load", "live-notes", "--to", file.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(3);
        assertThat(r.err()).contains("not a directory");
        Run below = skills("skill", "load", "live-notes", "--to", file.resolve("sub").toString());
        assertThat(below.code()).as(below.err()).isEqualTo(3);
        assertThat(below.err()).contains("not a directory");
    }

    @Test
    void hostileSkillsAreRefusedNamingTheFileAndNoServerTextForgesALine() throws Exception {
        Run deep = hostile("skill", "load", "deep-yaml");
        assertThat(deep.code()).as(deep.err()).isEqualTo(7);
        assertThat(deep.err()).contains("(FRONTMATTER)", "nested deeper than 64").doesNotContain("internal error");

        Run gone = hostile("skill", "load", "gone-file");
        assertThat(gone.code()).as(gone.err()).isEqualTo(4);
        assertThat(gone.err()).contains("skill://gone-file/references/GONE.md", "-32002");

        Run big = hostile("skill", "load", "big-blob");
        assertThat(big.code()).as(big.err()).isEqualTo(7);
        assertThat(big.err()).contains("(LIMIT)", "assets/big.bin", "--max-message-size");
        Run raised = hostile("--max-message-size", "24MiB", "skill", "load", "big-blob", "--to",
                dir.resolve("big").toString());
        assertThat(raised.code()).as(raised.err()).isZero();
        assertThat(Files.size(dir.resolve("big/assets/big.bin"))).isEqualTo(13L * 1024 * 1024);

        Run get = hostile("skill", "get", "nl-desc");
        assertThat(get.code()).as(get.err()).isZero();
        assertThat(get.out().lines()).noneMatch(l -> l.startsWith("uri:         skill://forged"))
                .anyMatch(l -> l.startsWith("description: Line one uri:"));

        Run clash = hostile("skill", "load", "clash", "--to", dir.resolve("clash").toString());
        assertThat(clash.code()).as(clash.err()).isEqualTo(2);
        assertThat(clash.err()).contains("skill://clash/SKILL.md was refused as invalid", "also the directory");
        assertThat(dir.resolve("clash")).doesNotExist();

        Run shared = hostile("skill", "load", "x");
        assertThat(shared.code()).isEqualTo(2);
        assertThat(shared.err()).contains("skill://a/x/SKILL.md", "skill://b/x/SKILL.md");

        Run wrongShape = fixture(List.of("--extension-true"), "skills");
        assertThat(wrongShape.code()).as(wrongShape.err()).isZero();
        assertThat(wrongShape.out()).contains("as true", "wrong shape");
    }
}
