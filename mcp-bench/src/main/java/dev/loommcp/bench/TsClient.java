package dev.loommcp.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The TypeScript SDK's client as a benchmark client: the harness starts {@code node test-servers/bench-ts-client.mjs}
 * where it starts a client JVM for the Java clients, with the same phases (passed as numbers) and the same server
 * command line, and reads the same {@code RESULT {json}} line back. {@code ts} is the SDK's {@code Client} over
 * {@code StdioClientTransport}; {@code ts-http} and {@code ts-http-sse} over {@code StreamableHTTPClientTransport}
 * against a server the script starts itself ({@code --http}, {@code --sse}), as the Java HTTP clients do.
 *
 * <p>The script and the pinned SDK (@modelcontextprotocol/sdk 1.32.2, {@code test-servers/package.json}) are found
 * from the working directory upwards (the harness runs from the repository root; the tests from {@code mcp-bench}).
 */
final class TsClient {

    static final String SCRIPT = "bench-ts-client.mjs";

    private TsClient() {
    }

    /**
     * The command line of one run of a TypeScript client through a profile.
     *
     * @param client     {@code ts}, {@code ts-http} or {@code ts-http-sse}
     * @param p          the phases
     * @param serverArgv the echo server's command line (stdio; the script adds {@code --http} itself)
     * @return {@code node .../bench-ts-client.mjs ...}
     * @throws IllegalStateException if the script or its {@code node_modules} cannot be found
     */
    static List<String> command(String client, Profile p, List<String> serverArgv) {
        Path dir = testServers();
        // --no-warnings: the SDK's HTTP transport adds an abort listener per request, and Node warns past 1,500
        List<String> cmd = new ArrayList<>(List.of("node", "--no-warnings", dir.resolve(SCRIPT).toString(),
                "--client", client,
                "--warmup-ms", Long.toString(p.warmupMillis()), "--seq-ms", Long.toString(p.seqMillis()),
                "--flight-ms", Long.toString(p.flightMillis()), "--sleep-ms", Long.toString(p.sleepMillis()),
                "--ready-repeats", Integer.toString(p.readyRepeats()), "--cold-calls",
                Integer.toString(p.coldCalls()), "--"));
        cmd.addAll(serverArgv);
        return cmd;
    }

    /** {@code test-servers} with the script and the installed SDK; a clear error when either is missing. */
    static Path testServers() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path dir = d.resolve("test-servers");
            if (Files.isRegularFile(dir.resolve(SCRIPT))) {
                if (!Files.isDirectory(dir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
                    throw new IllegalStateException("the TypeScript SDK client needs its pinned packages: run `npm ci`"
                            + " in " + dir + " (node_modules/@modelcontextprotocol/sdk is missing)");
                }
                return dir;
            }
        }
        throw new IllegalStateException("test-servers/" + SCRIPT + " not found from " + Path.of("").toAbsolutePath()
                + " upwards: run the benchmark from the repository root");
    }
}
