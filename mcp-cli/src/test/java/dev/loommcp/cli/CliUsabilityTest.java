package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpReferenceServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a first-time user runs into: which option a timeout message names, usage errors in two lines, durations
 * that are too long, repeated options, malformed {@code --env} names, {@code call --validate} of an unknown tool,
 * and the layout of {@code --help}. In this JVM, against small shell commands and the reference server.
 */
@ExtendWith(LeakCheck.class)
class CliUsabilityTest {

    record Run(int code, String out, String err) {
    }

    private final Map<String, String> env = new HashMap<>();

    private Run mcp(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), env::get, args);
        return new Run(code, out.toString(), err.toString());
    }

    private Run withServer(String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", CliReferenceServerTest.server()));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    /** Asserts a usage error: exit 2, exactly {@code mcp: MESSAGE} and the pointer to --help, nothing on stdout. */
    private static void assertUsageError(Run r, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().toList()).as(r.err())
                .containsExactly("mcp: " + message, "Try 'mcp --help' for more information.");
    }

    // ------------------------------------------------------------------------------------------------ U1 timeouts

    @Test
    void aSilentServerTimesOutTheHandshakeNamingConnectTimeout() {
        Run r = mcp("--stdio", "sleep 60", "--connect-timeout", "1s", "--timeout", "9s", "ping");
        assertThat(r.code()).as(r.err()).isEqualTo(5);
        // AUTO: the connect bound ends during the era probe, which the message names
        assertThat(r.err()).startsWith("mcp: timed out (--connect-timeout 1s): ").contains("era probe")
                .doesNotContain("--timeout 9s");
        Run legacy = mcp("--stdio", "sleep 60", "--protocol", "legacy", "--connect-timeout", "1s", "--timeout", "9s",
                "ping");
        assertThat(legacy.code()).as(legacy.err()).isEqualTo(5);
        assertThat(legacy.err()).startsWith("mcp: timed out (--connect-timeout 1s): initialize")
                .doesNotContain("--timeout 9s");
    }

    @Test
    void aServerThatWritesOnlyGarbageTimesOutTheHandshakeToo() {
        Run r = mcp("--stdio", "sh -c 'while :; do echo garbage; sleep 0.2; done'", "ping", "--connect-timeout",
                "1s", "--protocol", "legacy");
        assertThat(r.code()).as(r.err()).isEqualTo(5);
        assertThat(r.err()).contains("mcp: timed out (--connect-timeout 1s): initialize");
    }

    @Test
    void timeoutMessagesNameTheDefaultWhenTheOptionWasNotGiven() {
        assertThat(McpCommand.timeoutHint("--connect-timeout", null, McpCommand.DEFAULT_CONNECT_TIMEOUT))
                .isEqualTo("--connect-timeout, default 30s");
        assertThat(McpCommand.timeoutHint("--timeout", null, McpCommand.DEFAULT_REQUEST_TIMEOUT))
                .isEqualTo("--timeout, default 60s");
        assertThat(McpCommand.timeoutHint("--timeout", "PT9S", McpCommand.DEFAULT_REQUEST_TIMEOUT))
                .isEqualTo("--timeout PT9S");
        // the defaults named are the client's
        assertThat(McpCommand.DEFAULT_CONNECT_TIMEOUT).isEqualTo(Duration.ofSeconds(30));
        assertThat(McpCommand.DEFAULT_REQUEST_TIMEOUT).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aRequestTimeoutNamesTimeoutEvenWhenConnectTimeoutIsGiven() {
        Run r = withServer("--connect-timeout", "20s", "--timeout", "1s", "call", "trigger-long-running-operation",
                "{\"duration\":5,\"steps\":5}");
        assertThat(r.code()).as(r.err()).isEqualTo(5);
        assertThat(r.err()).startsWith("mcp: timed out (--timeout 1s): tools/call").doesNotContain("connect");
    }

    // ------------------------------------------------------------------------------------------------ U3 usage

    @Test
    void usageErrorsAreOneLinePlusAPointerToHelp() {
        String commands = "call, complete, conformance, info, listen, logout, notify, ping, prompt, prompts, read, "
                + "request, resources, servers, skill, skills, tasks, tools";
        assertUsageError(mcp(), "no command given; the commands are: " + commands);
        assertUsageError(mcp("--stdio", "true"), "no command given; the commands are: " + commands);
        assertUsageError(mcp("--stdio", "true", "no-such-command"),
                "unknown command 'no-such-command'; the commands are: " + commands);
        assertUsageError(mcp("--stdio", "true", "--jsn", "tools"), "unknown option '--jsn' (did you mean --json?)");
        assertUsageError(mcp("--stdio", "true", "tools", "extra"), "unexpected argument 'extra' for the tools command");
        assertUsageError(mcp("--stdio", "true", "call"), "call: Missing required parameter: 'NAME'");
        assertUsageError(mcp("--stdio", "true", "tasks"), "tasks: no command given; its commands are: cancel, get, "
                + "list, result");
        assertUsageError(mcp("--stdio", "true", "tasks", "get"), "get: Missing required parameter: 'TASK-ID'");
        assertUsageError(mcp("--timeout"), "Missing required parameter for option '--timeout' (DURATION)");
        assertUsageError(mcp("tools"), "say which server to talk to: --stdio 'COMMAND LINE' or --http URL "
                + "(or --sse URL)");
        assertUsageError(mcp("--stdio", "x", "--http", "http://127.0.0.1:1/mcp", "tools"),
                "give either --stdio or --http, not both");
        assertUsageError(mcp("--stdio", "true", "call", "echo", "[1,2]"),
                "the tool arguments must be a JSON object, like '{\"name\": \"value\"}'");
        Run badDuration = mcp("--stdio", "true", "--timeout", "soon", "ping");
        assertThat(badDuration.err().lines().toList()).hasSize(2);
        assertThat(badDuration.err()).startsWith("mcp: Invalid value for option '--timeout': 'soon' is not a duration");
        Run notFound = mcp("--stdio", "loom-no-such-program-xyz", "tools");
        assertThat(notFound.code()).isEqualTo(2);
        assertThat(notFound.err().lines().toList()).hasSize(2).allSatisfy(l -> assertThat(l).matches("mcp: .*|Try .*"));
    }

    @Test
    void everyErrorLineCarriesThePrefix() {
        Run dead = mcp("--stdio", "sh -c 'echo boom >&2; exit 7'", "tools");
        assertThat(dead.code()).isEqualTo(3);
        // the server's own lines are quoted under an mcp: line
        assertThat(dead.err().lines().toList()).allSatisfy(l -> assertThat(l).matches("mcp: .*|  \\| .*"));
        Run rpc = withServer("prompt", "no-such-prompt");
        assertThat(rpc.code()).isEqualTo(4);
        assertThat(rpc.err().lines().toList()).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith("mcp: "));
    }

    // ------------------------------------------------------------------------------------------------ H2 durations

    @Test
    void durationsThatOverflowNanosecondsAreUsageErrors() {
        for (String option : new String[] {"--timeout", "--connect-timeout"}) {
            for (String value : new String[] {"P106752D", "PT9999999999H", "2562048h", "8761h"}) {
                Run r = mcp("--stdio", "true", option, value, "ping");
                assertThat(r.code()).as(option + " " + value + ": " + r.err()).isEqualTo(2);
                assertThat(r.err()).contains("at most 365 days").contains(value);
                assertThat(r.err().lines().toList()).hasSize(2);
            }
        }
        Run help = mcp("--help");
        assertThat(help.out()).contains("at most 365 days");
    }

    // ------------------------------------------------------------------------------------------------ W4 help

    @Test
    void helpFitsEightyColumnsAndItsExamplesCanBeCopied() {
        Run r = mcp("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out().lines().toList()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
        List<String> examples = r.out().lines().dropWhile(l -> !l.equals("Examples:")).skip(1)
                .takeWhile(l -> !l.isEmpty()).toList();
        assertThat(examples).isNotEmpty();
        // every example is a command, or the continuation of one that ends with a backslash
        for (int i = 0; i < examples.size(); i++) {
            if (examples.get(i).startsWith("  mcp ")) {
                continue;
            }
            assertThat(examples.get(i)).startsWith("      ");
            assertThat(examples.get(i - 1)).endsWith(" \\");
        }
        assertThat(examples).anySatisfy(l -> assertThat(l).contains("--header 'Authorization: Bearer TOKEN' tools"));
        assertThat(r.out()).contains("--connect-timeout for start-up and");
    }

    // ------------------------------------------------------------------------------------------------ W5

    @Test
    void validatingAToolThatIsNotListedWarns() {
        Run r = withServer("call", "--validate", "no-such-tool");
        // server-everything answers an unknown tool with an isError result: the exit code is the call's
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.err().lines().findFirst()).hasValue("mcp: tool 'no-such-tool' is not in the server's tool "
                + "list; nothing to validate against");

        Run listed = withServer("call", "--validate", "echo", "{\"message\":\"hi\"}");
        assertThat(listed.code()).as(listed.err()).isZero();
        assertThat(listed.err()).isEmpty();
    }

    @Test
    void aSingleValueOptionGivenTwiceIsAUsageError() {
        assertUsageError(mcp("--stdio", "a", "--stdio", "b", "tools"), "--stdio given twice");
        assertUsageError(mcp("--stdio", "a", "tools", "--stdio", "b"), "--stdio given twice");
        assertUsageError(mcp("--http", "http://127.0.0.1:1/a", "--http", "http://127.0.0.1:1/b", "tools"),
                "--http given twice");
        assertUsageError(mcp("--stdio", "true", "--timeout", "1s", "ping", "--timeout", "2s"),
                "--timeout given twice");
        assertUsageError(mcp("--stdio", "true", "--connect-timeout", "1s", "--connect-timeout", "1s", "ping"),
                "--connect-timeout given twice");
        assertUsageError(mcp("--stdio", "true", "--cwd", "/", "ping", "--cwd", "/tmp"), "--cwd given twice");
    }

    @Test
    void envAndHeaderStayRepeatableBeforeAndAfterTheCommand() throws Exception {
        Run r = withServer("--env", "LOOM_A=1", "--env", "LOOM_B=2", "call", "get-env", "--env", "LOOM_C=3",
                "--env", "LOOM_D=4");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"LOOM_A\": \"1\"").contains("\"LOOM_B\": \"2\"").contains("\"LOOM_C\": \"3\"")
                .contains("\"LOOM_D\": \"4\"");
        try (HttpReferenceServer http = new HttpReferenceServer()) {
            Run h = mcp("--http", http.endpoint().toString(), "--header", "X-A: 1", "--header", "X-B: 2", "ping",
                    "--header", "X-C: 3", "--header", "X-D: 4");
            assertThat(h.code()).as(h.err()).isZero();
        }
    }

    @Test
    void malformedEnvNamesAreUsageErrorsThatNameTheProblemButNoValue() {
        String rule = " (expected NAME=VALUE, where NAME has no blanks or control characters)";
        assertUsageError(mcp("--stdio", "true", "--env", "MY VAR=secret-1", "ping"),
                "--env number 1: the variable name contains a space" + rule);
        assertUsageError(mcp("--stdio", "true", "--env", "OK=1", "--env", "A\u001bB=secret-2", "ping"),
                "--env number 2: the variable name contains a control character (U+001B)" + rule);
        assertUsageError(mcp("--stdio", "true", "--env", "TAB\tNAME=secret-3", "ping"),
                "--env number 1: the variable name contains a control character (U+0009)" + rule);
        assertUsageError(mcp("--stdio", "true", "--env", "NUL\0NAME=secret-4", "ping"),
                "--env number 1: the variable name contains a control character (U+0000)" + rule);
        assertUsageError(mcp("--stdio", "true", "--env", "NBSP\u00a0NAME=secret-5", "ping"),
                "--env number 1: the variable name contains a blank (U+00A0)" + rule);
        // NAME alone (pass our own value): a value given without its name is not printed either
        env.put("secret value 6", "x");
        assertUsageError(mcp("--stdio", "true", "ping", "--env", "secret value 6"),
                "--env number 1: the variable name contains a space" + rule);
    }
}
