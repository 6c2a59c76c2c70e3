package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.internal.json.Json;
import dev.loommcp.testing.LeakCheck;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Server-supplied text never reaches the terminal with its control characters: a small Node server
 * ({@code hostile-server.cjs}) answers with ANSI escape sequences, C1 controls, DEL and BEL in every field the CLI
 * prints, writes them to its stderr, and answers {@code prompts/get} with a 5,000-character error message.
 */
@ExtendWith(LeakCheck.class)
class CliHostileServerTest {

    record Run(int code, String out, String err) {
    }

    private static Run mcp(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), name -> null, args);
        return new Run(code, out.toString(), err.toString());
    }

    private static String server() {
        try {
            Path script = Path.of(CliHostileServerTest.class.getResource("hostile-server.cjs").toURI());
            return "node " + ShellWords.quote(script.toString());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Run withServer(String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", server()));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    /** Asserts that the text has no control character but line feed and tab: no C0, no DEL, no C1, no CR. */
    private static void assertNoControlCharacters(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            assertThat(c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f)
                    .as("control character U+%04X at %d in: %s", (int) c, i, text).isFalse();
        }
    }

    @Test
    void toolTextIsPrintedWithVisibleEscapes() {
        Run r = withServer("call", "ansi");
        assertThat(r.code()).as(r.err()).isZero();
        assertNoControlCharacters(r.out());
        assertNoControlCharacters(r.err());
        // CR LF is an ordinary line break; everything else is shown as \xNN; tab and line feed pass
        assertThat(r.out()).isEqualTo("red \\x1b[31mtext\\x1b[0m\nsecond line\\x9b2J with DEL\\x7f and BEL\\x07 and"
                + "\ttab\n");
    }

    @Test
    void tablesAndInfoAreEscapedToo() {
        Run tools = withServer("tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertNoControlCharacters(tools.out());
        assertThat(tools.out()).contains("prints \\x1b[31mred\\x1b[0m text");

        Run info = withServer("info");
        assertThat(info.code()).as(info.err()).isZero();
        assertNoControlCharacters(info.out());
        assertThat(info.out()).contains("hostile\\x1b[5m").contains("be \\x1b[8mcareful");
    }

    @Test
    void jsonOutputIsJsonEscapedAndParsesToWhatTheServerSent() {
        Run r = withServer("--json", "call", "ansi");
        assertThat(r.code()).as(r.err()).isZero();
        assertNoControlCharacters(r.out());
        assertThat(r.out()).containsIgnoringCase("\\u001b[31m").contains("\\u009b").contains("\\u007f");
        Map<?, ?> result = (Map<?, ?>) Json.read(r.out());
        assertThat(((Map<?, ?>) ((List<?>) result.get("content")).getFirst()).get("text"))
                .isEqualTo("red \u001b[31mtext\u001b[0m\r\nsecond line\u009b2J with DEL\u007f and BEL\u0007 and\ttab");
    }

    @Test
    void aHugeServerErrorMessageIsCutAndEscaped() {
        Run r = withServer("prompt", "anything");
        assertThat(r.code()).isEqualTo(4);
        assertNoControlCharacters(r.err());
        String line = r.err().lines().filter(l -> l.contains("JSON-RPC error -32602")).findFirst().orElseThrow();
        assertThat(line).contains("\\x1b[2Jno such prompt xxx").endsWith("x... (3,000 more characters)");
        assertThat(line.length()).isLessThan(2200);

        // --json keeps the whole message on stdout (JSON-escaped), and cuts the stderr line
        Run json = withServer("--json", "prompt", "anything");
        assertThat(json.code()).isEqualTo(4);
        assertNoControlCharacters(json.out());
        assertNoControlCharacters(json.err());
        Map<?, ?> error = (Map<?, ?>) ((Map<?, ?>) Json.read(json.out())).get("error");
        assertThat((String) error.get("message")).hasSize(5000).startsWith("\u001b[2J");
        assertThat(json.err()).contains("... (3,000 more characters)");
    }

    @Test
    void theServersStderrIsEscapedInTheTailAndWhenEchoed() {
        Run tail = withServer("call", "crash");
        assertThat(tail.code()).as(tail.err()).isEqualTo(3);
        assertNoControlCharacters(tail.err());
        assertThat(tail.err()).contains("exited with code 9").contains("starting \\x1b]0;pwned\\x1b\\ up")
                .contains("dying \\x1b[2J\\x9b now");

        Run echoed = withServer("--stderr", "call", "crash");
        assertThat(echoed.code()).as(echoed.err()).isEqualTo(3);
        assertNoControlCharacters(echoed.err());
        assertThat(echoed.err()).contains("starting \\x1b]0;pwned\\x1b\\ up").contains("dying \\x1b[2J\\x9b now");
    }
}
