package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.ReferenceServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CLI in the modern era (MCP 2026-07-28) through the real {@code main} ({@code java -jar mcp.jar}) against the
 * modern-era fixture ({@code test-servers/modern-fixture.mjs} on the reference SDK 2.4.0), dual-era and modern-only,
 * over stdio and HTTP: {@code info} names the era and the versions, {@code --protocol} picks it, {@code call} of the
 * MRTR tool {@code deploy} is answered through {@code --elicit} (accept, decline, none: the server's
 * {@code -32021}), {@code ping} is refused without a request, and {@code listen} prints what another client's
 * {@code add-note} causes until Ctrl+C.
 */
@ExtendWith(LeakCheck.class)
class CliModernIT {

    /** The fixture's stdio command line: dual-era, or modern-only with {@code reject}. */
    static String fixture(String legacy) {
        Path script = ReferenceServer.nodeDir().resolve("modern-fixture.mjs");
        return Stream.of("node", script.toString(), "--stdio", "--legacy", legacy).map(ShellWords::quote)
                .collect(Collectors.joining(" "));
    }

    private static Run mcp(String... args) throws Exception {
        return run(new ProcessBuilder(CliProcess.javaJar(args)));
    }

    private static Run withFixture(String legacy, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--stdio", fixture(legacy)));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    /** The HTTP fixture on an ephemeral port of 127.0.0.1; its first stdout line is its endpoint. */
    private static final class HttpFixture implements AutoCloseable {
        final Process process;
        final String endpoint;

        HttpFixture() throws Exception {
            Path script = ReferenceServer.nodeDir().resolve("modern-fixture.mjs");
            process = new ProcessBuilder("node", script.toString(), "--http")
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            endpoint = r.readLine();
            assertThat(endpoint).as("the fixture's endpoint").startsWith("http://127.0.0.1:");
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "modern", "2026-07-28"})
    void infoNamesTheModernEraItsVersionAndTheServersVersions(String mode) throws Exception {
        for (String legacy : List.of("serve", "reject")) {
            Run r = withFixture(legacy, "--protocol", mode, "info");
            assertThat(r.code()).as(mode + "/" + legacy + ": " + r.err()).isZero();
            assertThat(r.out()).as(mode + "/" + legacy).startsWith("Server:        loom-modern")
                    .contains("Era:           modern (server/discover, no session)\n"
                            + "Protocol:      2026-07-28\nSupported:     2026-07-28\n")
                    .contains("Capabilities:  tools");
        }
    }

    @Test
    void theDualEraFixtureSpeaksLegacyWhenAskedAndTheModernOnlyOneRefuses() throws Exception {
        Run legacy = withFixture("serve", "--protocol", "legacy", "info");
        assertThat(legacy.code()).as(legacy.err()).isZero();
        assertThat(legacy.out()).contains("Era:           legacy (initialize)\nProtocol:      2025-11-25\n");
        Run refused = withFixture("reject", "--protocol", "legacy", "info");
        assertThat(refused.code()).as(refused.err()).isEqualTo(4);
        assertThat(refused.err()).contains("-32022", "mcp: the server speaks 2026-07-28; choose the era or version "
                + "with --protocol");
    }

    @Test
    void theListCommandsAndJsonWorkInTheModernEra() throws Exception {
        Run tools = withFixture("serve", "tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("echo", "deploy", "add-note");
        Run echo = withFixture("reject", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(echo.code()).as(echo.err()).isZero();
        assertThat(echo.out()).isEqualTo("Echo: hi\n");
        Run json = withFixture("reject", "--json", "info");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"supportedVersions\"");
        Run read = withFixture("reject", "read", "notes://all");
        assertThat(read.code()).as(read.err()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"stdio", "http"})
    void anMrtrToolIsAnsweredThroughElicit(String transport) throws Exception {
        try (HttpFixture http = transport.equals("http") ? new HttpFixture() : null) {
            List<String> server = http != null ? List.of("--http", http.endpoint)
                    : List.of("--stdio", fixture("reject"));
            List<String> accept = new ArrayList<>(server);
            accept.addAll(List.of("--elicit", "{\"confirm\":true}", "call", "deploy", "{\"env\":\"prod\"}"));
            Run accepted = mcp(accept.toArray(String[]::new));
            assertThat(accepted.code()).as(accepted.err()).isZero();
            assertThat(accepted.out()).isEqualTo("Deployed to prod\n");
            // over HTTP the call first lists the tools (for their x-mcp-header parameters); the fixture's tool with
            // an invalid annotation is not warned about on a call that never asked for a listing
            assertThat(accepted.err()).isEqualTo("mcp: the server asks: Deploy to prod? (answered accept with "
                    + "{\"confirm\":true}, from --elicit)\n");
            List<String> decline = new ArrayList<>(server);
            decline.addAll(List.of("--elicit", "decline", "call", "deploy", "{\"env\":\"prod\"}"));
            Run declined = mcp(decline.toArray(String[]::new));
            assertThat(declined.code()).as(declined.err()).isEqualTo(1);
            assertThat(declined.out()).contains("Deploy to prod declined");
            List<String> none = new ArrayList<>(server);
            none.addAll(List.of("call", "deploy", "{\"env\":\"prod\"}"));
            Run unanswered = mcp(none.toArray(String[]::new));
            assertThat(unanswered.code()).as(unanswered.err()).isEqualTo(4);
            assertThat(unanswered.err()).contains("--elicit ANSWER");
        }
    }

    @Test
    void theLegacyEraOfTheDualFixtureAsksThroughTheSameElicitOption() throws Exception {
        Run r = withFixture("serve", "--protocol", "legacy", "--elicit", "{\"confirm\":true}", "call", "deploy",
                "{\"env\":\"prod\"}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Deployed to prod\n");
        assertThat(r.err()).contains("mcp: the server asks: Deploy to prod?");
    }

    @Test
    void pingIsRefusedInTheModernEraWithoutARequest() throws Exception {
        Run r = withFixture("reject", "ping");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith("mcp: ping does not exist in the modern protocol era")
                .contains("choose another with --protocol");
    }

    @Test
    void listenPrintsWhatAnotherClientCausesUntilCtrlC() throws Exception {
        assumeFalse(CliSignalIT.ignoredHere("INT"), "SIGINT is ignored in this process tree");
        try (HttpFixture http = new HttpFixture();
             CliListenIT.Listener l = new CliListenIT.Listener("--http", http.endpoint, "listen", "--tools",
                     "--prompts", "--resource", "notes://all")) {
            // another client adds a note until the listener has printed all three kinds: the first may come before
            // the subscription is acknowledged, and then goes to nobody
            List<String> seen = new ArrayList<>();
            for (int attempt = 0; !(seen.stream().anyMatch(s -> s.endsWith("  resource updated: notes://all"))
                    && seen.stream().anyMatch(s -> s.endsWith("  tools list changed"))
                    && seen.stream().anyMatch(s -> s.endsWith("  prompts list changed"))); attempt++) {
                assertThat(attempt).as("notes added, lines seen: " + seen).isLessThan(10);
                Run note = mcp("--http", http.endpoint, "call", "add-note", "{\"text\":\"n\"}");
                assertThat(note.code()).as(note.err()).isZero();
                String line;
                while ((line = l.poll(3_000)) != null) {
                    seen.add(line);
                }
            }
            CliSignalIT.signal(l.process, "INT");
            Run r = l.end();
            assertThat(r.code()).as(r.err()).isEqualTo(130);
            assertThat(r.err()).startsWith("mcp: listening for tools list changes, prompts list changes, updates of "
                    + "notes://all (Ctrl+C to stop)\n").contains("mcp: interrupted");
        }
    }

    @Test
    void autoFallsBackToLegacyAfterTheProbeTimeoutAgainstASilentServer() throws Exception {
        // a 2025 server that never answers anything before initialize: the probe's silence means legacy
        String silent = Stream.of("node", ReferenceServer.nodeDir().resolve("legacy-stdio.cjs").toString(),
                "--silent").map(ShellWords::quote).collect(Collectors.joining(" "));
        Run r = mcp("--stdio", silent, "--probe-timeout", "500ms", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Echo: hi\n");
        Run info = mcp("--stdio", silent, "--probe-timeout", "500ms", "info");
        assertThat(info.out()).contains("Era:           legacy (initialize)");
    }
}
