package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.InProcessCli.Run;
import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpReferenceServer;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp COMMAND --help}, {@code --max-message-size}, {@code --root}, {@code --elicit}, list commands against a
 * server without the capability, tables with long and CJK names, and {@code structuredContent} with long strings:
 * in this JVM, against the reference server and a small Node server ({@code mini-server.js}).
 */
@ExtendWith(LeakCheck.class)
class CliOptionsTest {

    private final Map<String, String> env = new HashMap<>();

    private Run mcp(String... args) {
        return InProcessCli.run(env::get, args);
    }

    private Run with(String server, String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", server));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    private Run withReference(String... args) {
        return with(CliReferenceServerTest.server(), args);
    }

    /** The small Node server: tools only (no resources, no prompts), long and CJK tool names, a big result. */
    private Run withMini(String... args) {
        Path script;
        try {
            script = Path.of(Objects.requireNonNull(CliOptionsTest.class.getResource("mini-server.js")).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return with("node " + ShellWords.quote(script.toString()), args);
    }

    private static void assertUsageError(Run r, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().toList()).as(r.err())
                .containsExactly("mcp: " + message, "Try 'mcp --help' for more information.");
    }

    // ------------------------------------------------------------------------------------------------ --help

    @Test
    void everyCommandHasItsOwnHelp() {
        for (String command : List.of("info", "tools", "call", "resources", "read", "prompts", "prompt", "ping",
                "listen", "conformance")) {
            Run r = mcp(command, "--help");
            assertThat(r.code()).as(command + ": " + r.err()).isZero();
            assertThat(r.out()).as(command).startsWith("Usage: mcp " + command);
            Run after = mcp("--stdio", "true", command, "-h");
            assertThat(after.code()).as(command + ": " + after.err()).isZero();
            assertThat(after.out()).as(command).startsWith("Usage: mcp " + command);
        }
    }

    @Test
    void theTaskOptionsHelpSaysWhereTimeoutHasNoDefault() {
        Run call = mcp("call", "--help");
        assertThat(call.code()).as(call.err()).isZero();
        String text = call.out().replaceAll("\\s+", " ");
        assertThat(text).contains("--task Call the tool as a task", "no default", "the task is left as it is");
        assertThat(text).containsPattern("Default 60s; call --task and tasks result have no default");
        Run result = mcp("tasks", "result", "--help");
        assertThat(result.out().replaceAll("\\s+", " ")).contains("sends no tasks/cancel");
    }

    @Test
    void anEmptyTaskIdIsAUsageErrorBeforeAnythingStarts() {
        for (String command : List.of("get", "cancel", "result")) {
            for (String id : List.of("", "  ")) {
                Run r = mcp("--stdio", "no-such-program-here", "tasks", command, id);
                assertThat(r.code()).as(command + ": " + r.err()).isEqualTo(2);
                assertThat(r.err()).as(command).contains("TASK-ID is empty").doesNotContain("not found");
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ sizes

    @Test
    void maxMessageSizeBoundsWhatTheServerMaySend() {
        Run small = withReference("--max-message-size", "1KiB", "tools");
        assertThat(small.code()).as(small.err()).isEqualTo(3);
        assertThat(small.err()).contains("1024").contains("raise it with --max-message-size");
        assertThat(small.out()).isEmpty();
        Run enough = withReference("--max-message-size", "16MiB", "tools");
        assertThat(enough.code()).as(enough.err()).isZero();
        assertThat(enough.out()).contains("echo ");
    }

    @Test
    void maxMessageSizeOverHttpToo() throws Exception {
        try (HttpReferenceServer server = new HttpReferenceServer()) {
            Run small = mcp("--http", server.endpoint().toString(), "--max-message-size", "1024", "tools");
            // the HTTP transport reports an over-long SSE line as a protocol error (exit 6; stdio: 3)
            assertThat(small.code()).as(small.err()).isEqualTo(6);
            assertThat(small.err()).contains("longer than the maximum of 1024 bytes")
                    .contains("raise it with --max-message-size");
            Run enough = mcp("--http", server.endpoint().toString(), "--max-message-size", "1M", "tools");
            assertThat(enough.code()).as(enough.err()).isZero();
        }
    }

    @Test
    void aUrlWithUserInfoIsRefusedInWordsThatFitTheCli() {
        Run r = mcp("--http", "http://user:secret@127.0.0.1:9/mcp", "ping");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("user info").contains("Authorization header")
                .doesNotContain("header(\"").doesNotContain("secret");
    }

    @Test
    void badSizesAreUsageErrors() {
        assertUsageError(mcp("--stdio", "true", "--max-message-size", "0", "tools"),
                "Invalid value for option '--max-message-size': '0' is outside 1KiB to 1GiB");
        assertUsageError(mcp("--stdio", "true", "--max-message-size", "2GiB", "tools"),
                "Invalid value for option '--max-message-size': '2GiB' is outside 1KiB to 1GiB");
        assertUsageError(mcp("--stdio", "true", "--max-message-size", "lots", "tools"),
                "Invalid value for option '--max-message-size': 'lots' is not a size (expected bytes, or a number "
                        + "with KiB, MiB or GiB, like 16MiB)");
        assertUsageError(mcp("--stdio", "true", "--max-message-size", "99999999999999999999", "tools"),
                "Invalid value for option '--max-message-size': '99999999999999999999' is not a size (expected "
                        + "bytes, or a number with KiB, MiB or GiB, like 16MiB)");
        assertUsageError(mcp("--stdio", "true", "--max-message-size", "1M", "--max-message-size", "2M", "tools"),
                "--max-message-size given twice");
        assertThat(Sizes.parse("16MiB")).isEqualTo(16 * 1024 * 1024);
        assertThat(Sizes.parse("1g")).isEqualTo(Sizes.MAX);
        assertThat(Sizes.parse("1024 B")).isEqualTo(Sizes.MIN);
    }

    @Test
    void badHeadersAreUsageErrorsThatNeverShowTheValue() {
        String url = "http://127.0.0.1:9/mcp"; // never contacted: the headers are refused first
        assertUsageError(mcp("--http", url, "--header", "X-Secret-no-colon", "tools"),
                "--header number 1 is not of the form 'Name: value'");
        assertUsageError(mcp("--http", url, "--header", "X-A: 1", "--header", "Bad Name: secret-value", "tools"),
                "--header number 2 has an invalid header name");
        assertUsageError(mcp("--http", url, "--header", "X(A): secret-value", "tools"),
                "--header number 1 has an invalid header name");
        // what the transport refuses is attributed to the --header that gave it, not to --http
        assertUsageError(mcp("--http", url, "--header", "Accept: secret-value", "tools"),
                "--header number 1: cannot add the header Accept, which the transport sets itself");
        assertUsageError(mcp("--http", url, "--header", "X-A: 1", "--header", "mcp-session-id: secret-value", "tools"),
                "--header number 2: cannot add the header mcp-session-id, which the transport sets itself");
        assertUsageError(mcp("--http", url, "--header", "Host: secret-value", "tools"),
                "--header number 1: cannot add the header Host, which the HTTP client does not allow");
        assertUsageError(mcp("--http", url, "--header", "X-A: secret\u0001value", "tools"),
                "--header number 1: cannot add an invalid value (control or non-ASCII character) for the header X-A");
    }

    // ------------------------------------------------------------------------------------------------ roots

    @Test
    void rootsAreOfferedToTheServer(@TempDir Path dir) {
        Run r = withReference("--root", dir.toString(), "--root", ".", "call", "get-roots-list");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("(2 total)").contains("URI: " + dir.toUri())
                .contains("URI: " + Path.of("").toAbsolutePath().toUri());
    }

    @Test
    void withoutRootsTheServerSeesNoRootsCapability() {
        // server-everything registers get-roots-list only for clients with the roots capability
        Run r = withReference("tools");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("get-roots-list");
    }

    @Test
    void aRootThatIsNotADirectoryIsAUsageError(@TempDir Path dir) {
        Path missing = dir.resolve("missing");
        assertUsageError(withReference("--root", missing.toString(), "ping"),
                "--root " + missing + ": no such directory");
    }

    // ------------------------------------------------------------------------------------------------ elicitation

    @Test
    void elicitationCanBeDeclined() {
        Run r = withReference("--elicit", "decline", "call", "trigger-elicitation-request");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"action\": \"decline\"");
        assertThat(r.err()).isEqualTo("mcp: the server asks: Please provide inputs for the following fields: "
                + "(answered decline, from --elicit)\n");
    }

    @Test
    void elicitationCanBeCancelled() {
        Run r = withReference("--elicit", "cancel", "call", "trigger-elicitation-request");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"action\": \"cancel\"");
    }

    @Test
    void elicitationCanBeAcceptedWithGivenContent() {
        Run r = withReference("--elicit", "{\"name\":\"Ada Lovelace\",\"check\":true}", "call",
                "trigger-elicitation-request");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"action\": \"accept\"").contains("Ada Lovelace");
    }

    @Test
    void badElicitAnswersAreUsageErrors() {
        assertUsageError(withReference("--elicit", "[1]", "ping"),
                "--elicit: expected decline, cancel or a JSON object to accept with, like '{\"name\": \"value\"}'");
        Run notJson = withReference("--elicit", "yes please", "ping");
        assertThat(notJson.code()).isEqualTo(2);
        assertThat(notJson.err()).startsWith("mcp: --elicit: expected decline, cancel or a JSON object to accept "
                + "with; the JSON is ");
    }

    // ------------------------------------------------------------------------------------------------ capabilities

    @Test
    void listsOfAMissingCapabilitySaySoAndSucceed() {
        Run resources = withMini("resources");
        assertThat(resources.code()).as(resources.err()).isZero();
        assertThat(resources.out()).isEqualTo("(the server does not offer resources: its initialize result "
                + "declares no 'resources' capability)\n");
        assertThat(resources.err()).isEmpty();
        Run templates = withMini("resources", "--templates");
        assertThat(templates.code()).as(templates.err()).isZero();
        assertThat(templates.out()).startsWith("(the server does not offer resources");
        Run prompts = withMini("prompts");
        assertThat(prompts.code()).as(prompts.err()).isZero();
        assertThat(prompts.out()).isEqualTo("(the server does not offer prompts: its initialize result declares "
                + "no 'prompts' capability)\n");
        Run json = withMini("--json", "prompts");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(Json.read(json.out())).isEqualTo(Map.of("prompts", List.of()));
        Run jsonTemplates = withMini("--json", "resources", "--templates");
        assertThat(Json.read(jsonTemplates.out())).isEqualTo(Map.of("resourceTemplates", List.of()));
    }

    // ------------------------------------------------------------------------------------------------ tables

    @Test
    void longToolNamesAreCutAndCjkNamesAlignByDisplayWidth() {
        env.put("COLUMNS", "80");
        Run r = withMini("tools");
        assertThat(r.code()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(4);
        for (String line : lines) {
            assertThat(TerminalText.displayWidth(line)).as(line).isLessThanOrEqualTo(80);
        }
        // every row's second column starts at the same terminal column as the header's
        int title = lines.getFirst().indexOf("TITLE");
        assertThat(lines.get(1)).startsWith("a-tool-whose-name-is-far-...");
        assertThat(lines.get(2)).startsWith("検索");
        assertThat(TerminalText.displayWidth(lines.get(2).substring(0, lines.get(2).indexOf("日本語"))))
                .isEqualTo(title);
        assertThat(lines.get(3).indexOf("big structured content"))
                .isEqualTo(lines.getFirst().indexOf("DESCRIPTION"));
    }

    // ------------------------------------------------------------------------------------------------ results

    @Test
    void longStringsInStructuredContentAreSummarisedButJsonKeepsThemWhole() {
        Run r = withMini("call", "big");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"base64\" : \"" + "QUJD".repeat(15) + "... [300,000 characters]\"")
                .contains("\"size\" : 225000").contains("\"short\"")
                .endsWith("(strings longer than 200 characters are cut; --json prints them whole)\n");
        assertThat(r.out().length()).isLessThan(2_000);
        Run json = withMini("--json", "call", "big");
        assertThat(json.code()).as(json.err()).isZero();
        Map<?, ?> structured = (Map<?, ?>) ((Map<?, ?>) Json.read(json.out())).get("structuredContent");
        assertThat((String) structured.get("base64")).hasSize(300_000);
    }
}
