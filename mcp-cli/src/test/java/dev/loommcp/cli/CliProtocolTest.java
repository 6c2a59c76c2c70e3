package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.InProcessCli.Run;
import dev.loommcp.testing.LeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code --protocol} and {@code --probe-timeout} (parsing, usage errors naming what is accepted), {@code listen}'s
 * help, and {@code info}'s era lines against the legacy reference server (server-everything), in this JVM.
 */
@ExtendWith(LeakCheck.class)
class CliProtocolTest {

    private final Map<String, String> env = new HashMap<>();

    private Run mcp(String... args) {
        return InProcessCli.run(env::get, args);
    }

    private Run withReference(String... args) {
        List<String> all = new ArrayList<>(List.of("--stdio", CliReferenceServerTest.server()));
        all.addAll(List.of(args));
        return mcp(all.toArray(String[]::new));
    }

    private static void assertUsageError(Run r, String message) {
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().toList()).as(r.err())
                .containsExactly("mcp: " + message, "Try 'mcp --help' for more information.");
    }

    @Test
    void aBadProtocolIsAUsageErrorNamingTheAcceptedValues() {
        assertUsageError(mcp("--stdio", "true", "--protocol", "newest", "ping"),
                "Invalid value for option '--protocol': protocol mode 'newest' is not one of auto, legacy, modern "
                        + "or a version such as 2026-07-28");
        Run unknownVersion = mcp("--stdio", "true", "--protocol", "1999-01-01", "ping");
        assertThat(unknownVersion.code()).isEqualTo(2);
        assertThat(unknownVersion.err()).startsWith("mcp: Invalid value for option '--protocol': protocol version "
                + "'1999-01-01' is not supported; this client speaks 2026-07-28 and [").contains("2025-11-25");
        assertUsageError(mcp("--stdio", "true", "--protocol", "auto", "ping", "--protocol", "legacy"),
                "--protocol given twice");
        Run missing = mcp("--stdio", "true", "ping", "--protocol");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("--protocol");
    }

    @Test
    void aBadProbeTimeoutIsAUsageError() {
        Run zero = mcp("--stdio", "true", "--probe-timeout", "0s", "ping");
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).startsWith("mcp: Invalid value for option '--probe-timeout': ");
        assertUsageError(mcp("--stdio", "true", "--probe-timeout", "1s", "ping", "--probe-timeout", "2s"),
                "--probe-timeout given twice");
    }

    @Test
    void theHelpNamesTheProtocolOptionsAndTheListenCommand() {
        Run help = mcp("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("--protocol=MODE", "--probe-timeout=DURATION", "listen");
        Run listen = mcp("listen", "--help");
        assertThat(listen.code()).as(listen.err()).isZero();
        assertThat(listen.out()).startsWith("Usage: mcp listen").contains("--tools", "--prompts", "--resources",
                "--resource=URI");
    }

    @Test
    void infoNamesTheLegacyEraAgainstALegacyServerInEveryModeThatAllowsIt() {
        for (String mode : List.of("legacy", "2025-11-25", "auto")) {
            Run r = withReference("--protocol", mode, "info");
            assertThat(r.code()).as(mode + ": " + r.err()).isZero();
            assertThat(r.out()).as(mode).contains("Era:           legacy (initialize)\nProtocol:      2025-11-25\n")
                    .doesNotContain("Supported:");
        }
    }

    @Test
    void aPinnedLegacyVersionIsTheOneSpoken() {
        Run pinnedOlder = withReference("--protocol", "2025-06-18", "info");
        assertThat(pinnedOlder.code()).as(pinnedOlder.err()).isZero();
        assertThat(pinnedOlder.out()).contains("Protocol:      2025-06-18");
    }

    @Test
    void listenRefusesABlankOrControlCharacterResourceUri() {
        Run blank = mcp("--stdio", "true", "listen", "--resource", "");
        assertThat(blank.code()).as(blank.err()).isEqualTo(2);
        assertThat(blank.err()).startsWith("mcp: --resource needs a resource URI; '' is blank");
        Run newline = mcp("--stdio", "true", "listen", "--resource", "a b\nc");
        assertThat(newline.code()).as(newline.err()).isEqualTo(2);
        assertThat(newline.err()).startsWith("mcp: --resource needs a resource URI; 'a b\\x0ac' is not one");
    }
}
