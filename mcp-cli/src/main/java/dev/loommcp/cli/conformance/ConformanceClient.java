package dev.loommcp.cli.conformance;

import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Tool;
import dev.loommcp.transport.http.HttpTransport;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client side of the official MCP conformance suite ({@code @modelcontextprotocol/conformance} 0.1.16): the suite
 * starts a scenario server, runs {@code mcp conformance <server-url>} with the scenario's name in the environment
 * variable {@value #SCENARIO_ENV}, and afterwards checks what the server saw. This class does what each scenario
 * asks, over {@link HttpTransport} and {@link McpClient}, and returns the process exit code.
 *
 * <p>Scenarios:
 * <ul>
 *   <li>{@code initialize}: the handshake only.</li>
 *   <li>{@code tools_call}: list the tools and call {@code add_numbers}.</li>
 *   <li>{@code elicitation-sep1034-client-defaults}: declare elicitation, call
 *       {@code test_client_elicitation_defaults}, and accept the form (a missing {@code mode} means form) with the
 *       schema's defaults filled in (SEP-1034).</li>
 *   <li>{@code sse-retry}: list the tools and call {@code test_reconnection}, whose response stream the server closes
 *       early: the transport resumes it with GET and {@code Last-Event-ID} after the server's {@code retry} delay
 *       (SEP-1699).</li>
 *   <li>{@code auth/*}: not supported yet (OAuth is not implemented): exit code {@value #EXIT_UNSUPPORTED}.</li>
 * </ul>
 *
 * <p>Messages go to the given error stream; nothing secret is ever printed. Thread-safe (no shared state).
 */
public final class ConformanceClient {

    /** The environment variable naming the scenario. */
    public static final String SCENARIO_ENV = "MCP_CONFORMANCE_SCENARIO";
    /** Exit code: the scenario's work was done. */
    public static final int EXIT_OK = 0;
    /** Exit code: the scenario's work failed (an exception, or an unexpected result). */
    public static final int EXIT_FAILED = 1;
    /** Exit code: the scenario is unknown or not supported by this client. */
    public static final int EXIT_UNSUPPORTED = 2;

    /** The scenarios this client knows (besides the {@code auth/} family, which it refuses). */
    public static final Set<String> SCENARIOS = Set.of("initialize", "tools_call",
            "elicitation-sep1034-client-defaults", "sse-retry");

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);
    static final Implementation CLIENT_INFO = Implementation.of("loom-mcp-conformance", "0.1.0");

    private ConformanceClient() {
    }

    /**
     * Runs one scenario, writing progress and errors to {@code System.err}.
     *
     * @param serverUrl the scenario server's MCP endpoint, as the suite gives it
     * @param scenario  the scenario name (usually from {@value #SCENARIO_ENV}), or {@code null} when unset
     * @return the exit code: {@value #EXIT_OK} done, {@value #EXIT_FAILED} failed, {@value #EXIT_UNSUPPORTED} unknown
     *         or unsupported scenario, or a bad URL
     */
    public static int run(String serverUrl, String scenario) {
        return run(serverUrl, scenario, System.err);
    }

    /**
     * Runs one scenario.
     *
     * @param serverUrl the scenario server's MCP endpoint
     * @param scenario  the scenario name, or {@code null} when unset
     * @param err       where progress and errors go
     * @return the exit code, as {@link #run(String, String)}
     */
    public static int run(String serverUrl, String scenario, PrintStream err) {
        if (scenario == null || scenario.isBlank()) {
            err.println("conformance: " + SCENARIO_ENV + " is not set");
            return EXIT_UNSUPPORTED;
        }
        if (scenario.startsWith("auth/")) {
            err.println("conformance: scenario " + scenario + " needs OAuth authorization, which this client does "
                    + "not implement yet");
            return EXIT_UNSUPPORTED;
        }
        if (!SCENARIOS.contains(scenario)) {
            err.println("conformance: unknown scenario " + scenario + " (known: " + String.join(", ",
                    SCENARIOS.stream().sorted().toList()) + ", auth/*)");
            return EXIT_UNSUPPORTED;
        }
        URI endpoint;
        try {
            endpoint = URI.create(serverUrl);
            HttpTransport.newBuilder(endpoint); // validates
        } catch (RuntimeException e) {
            err.println("conformance: not a usable http(s) server URL: " + e.getMessage());
            return EXIT_UNSUPPORTED;
        }
        try {
            return switch (scenario) {
                case "initialize" -> initialize(endpoint, err);
                case "tools_call" -> toolsCall(endpoint, err);
                case "elicitation-sep1034-client-defaults" -> elicitationDefaults(endpoint, err);
                case "sse-retry" -> sseRetry(endpoint, err);
                default -> EXIT_UNSUPPORTED;
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("conformance: " + scenario + " interrupted");
            return EXIT_FAILED;
        } catch (McpException e) {
            err.println("conformance: " + scenario + " failed: " + e.getClass().getSimpleName() + ": "
                    + e.getMessage());
            return EXIT_FAILED;
        }
    }

    private static McpClient.Builder client(URI endpoint) {
        return McpClient.newBuilder(HttpTransport.newBuilder(endpoint).build())
                .clientInfo(CLIENT_INFO)
                .requestTimeout(REQUEST_TIMEOUT);
    }

    private static int initialize(URI endpoint, PrintStream err) throws InterruptedException {
        try (McpClient c = client(endpoint).build()) {
            c.connect();
            err.println("conformance: initialized, protocol " + c.protocolVersion() + ", server "
                    + c.serverInfo().name());
        }
        return EXIT_OK;
    }

    private static int toolsCall(URI endpoint, PrintStream err) throws InterruptedException {
        try (McpClient c = client(endpoint).build()) {
            c.connect();
            return callListedTool(c, "add_numbers", Map.of("a", 5, "b", 3), err);
        }
    }

    private static int elicitationDefaults(URI endpoint, PrintStream err) throws InterruptedException {
        McpClient.Builder b = client(endpoint)
                // accept every form with nothing typed in: the client fills in the schema's defaults (SEP-1034);
                // a request without "mode" is a form
                .elicitationHandler(request -> request.isUrlMode()
                        ? ElicitResult.decline() : ElicitResult.accept(Map.of()))
                .applyElicitationDefaults(true);
        try (McpClient c = b.build()) {
            c.connect();
            return callListedTool(c, "test_client_elicitation_defaults", Map.of(), err);
        }
    }

    private static int sseRetry(URI endpoint, PrintStream err) throws InterruptedException {
        try (McpClient c = client(endpoint).build()) {
            c.connect();
            return callListedTool(c, "test_reconnection", Map.of(), err);
        }
    }

    private static int callListedTool(McpClient c, String name, Map<String, Object> args, PrintStream err)
            throws InterruptedException {
        List<Tool> tools = c.listAllTools();
        if (tools.stream().noneMatch(t -> t.name().equals(name))) {
            err.println("conformance: the server does not list the tool " + name);
            return EXIT_FAILED;
        }
        CallToolResult r = c.callTool(name, args);
        if (r.error()) {
            err.println("conformance: " + name + " returned a result with isError true");
            return EXIT_FAILED;
        }
        err.println("conformance: " + name + " returned " + r.content().size() + " content block(s)");
        return EXIT_OK;
    }
}
