package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The echo server's answers byte for byte, in both modes (single-era and {@code --dual}), as a real child process
 * over stdio: a corpus of requests of both eras (every method, every error, members in any order, whitespace,
 * duplicated members, malformed lines) against the answers the server gave before its one-pass reader
 * ({@code echo-corpus.jsonl}, {@code echo-answers-*.jsonl}, recorded from the server as it was at {@code 418e164});
 * and strings with quotes, backslashes and multi-byte characters at every offset of the reader's 8-byte steps, sent
 * in pieces so that lines arrive split across reads.
 */
@ExtendWith(LeakCheck.class)
class EchoServerWireTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}";
    private static final String MODERN_TAIL = "}],\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/"
            + "serverInfo\":{\"name\":\"loom-mcp-bench-echo\",\"version\":\"1.0\"}}}}";

    @Test
    void dualEraAnswersAreTheRecordedOnesByteForByte() throws Exception {
        assertThat(answers(DualEraEchoServerTest.dualArgv(), resource("echo-corpus.jsonl"), false))
                .containsExactlyElementsOf(resource("echo-answers-dual.jsonl"));
    }

    @Test
    void singleEraAnswersAreTheRecordedOnesByteForByte() throws Exception {
        assertThat(answers(EchoServerTest.serverArgv(), resource("echo-corpus.jsonl"), false))
                .containsExactlyElementsOf(resource("echo-answers-single.jsonl"));
    }

    @Test
    void escapesAndMultiByteCharactersAtEveryOffsetAreEchoedVerbatimInBothEras() throws Exception {
        List<String> requests = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < 24; k++) {
            // the raw JSON string token, quotes included: escapes and UTF-8 land at every position of an 8-byte word
            String text = "\"" + "x".repeat(k) + "\\\"\u00e9\\\\\u4e2d\\n" + "\\\"".repeat(k % 3) + "y".repeat(k % 9)
                    + "\\\\\"";
            boolean modern = k % 2 == 1;
            String pad = "\"pad\":\"" + "\\\"".repeat(k % 5) + "p".repeat(k) + "\",";
            requests.add("{\"jsonrpc\":\"2.0\",\"id\":" + k + ",\"method\":\"tools/call\",\"params\":{" + pad
                    + "\"name\":\"echo\",\"arguments\":{\"text\":" + text + "}" + (modern ? "," + META : "") + "}}");
            expected.add("{\"jsonrpc\":\"2.0\",\"id\":" + k + ",\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":" + text + (modern ? MODERN_TAIL : "}]}}"));
        }
        assertThat(answers(DualEraEchoServerTest.dualArgv(), requests, true)).containsExactlyElementsOf(expected);
    }

    /** Sends the lines (in small pieces when asked), closes stdin and returns every answer line. */
    private List<String> answers(List<String> argv, List<String> lines, boolean inPieces) throws Exception {
        Process server = processes.start(new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT));
        try {
            byte[] bytes = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
            try (OutputStream in = server.getOutputStream()) {
                int step = inPieces ? 7 : bytes.length;
                for (int i = 0; i < bytes.length; i += step) {
                    in.write(bytes, i, Math.min(step, bytes.length - i));
                    in.flush();
                }
            }
            List<String> got = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    got.add(line);
                }
            }
            assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("server exits when stdin ends").isTrue();
            assertThat(server.exitValue()).isZero();
            return got;
        } finally {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static List<String> resource(String name) throws IOException {
        try (InputStream in = EchoServerWireTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
