package dev.loommcp.cli.conformance;

import dev.loommcp.McpClient;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.auth.McpOAuth;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.PromptArgument;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.Tool;
import dev.loommcp.skills.LoadedSkill;
import dev.loommcp.skills.McpSkills;
import dev.loommcp.skills.SkillEntry;
import dev.loommcp.skills.SkillFile;
import dev.loommcp.skills.SkillListing;
import dev.loommcp.skills.SkillVerificationException;
import dev.loommcp.transport.http.HttpTransport;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The client side of the official MCP conformance suite ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12):
 * the suite starts a scenario server, runs {@code mcp conformance <server-url>} with the scenario's name in
 * {@value #SCENARIO_ENV}, the protocol version it runs at in {@code MCP_CONFORMANCE_PROTOCOL_VERSION} and sometimes a
 * JSON context in {@code MCP_CONFORMANCE_CONTEXT} (see {@link ConformanceSettings}), and afterwards checks what the
 * server saw. This class does what each scenario asks, over {@link HttpTransport} and {@link McpClient} (in the era
 * the protocol version picks: {@code 2026-07-28} pinned modern, a 2025 version pinned legacy, none {@code AUTO}),
 * and returns the process exit code.
 *
 * <p>Scenarios (what the client does; the suite checks the wire):
 * <ul>
 *   <li>{@code initialize}: connect only.</li>
 *   <li>{@code tools_call}: list the tools and call {@code add_numbers}.</li>
 *   <li>{@code elicitation-sep1034-client-defaults}: declare elicitation, call
 *       {@code test_client_elicitation_defaults}, and accept the form (a missing {@code mode} means form) with the
 *       schema's defaults filled in (SEP-1034).</li>
 *   <li>{@code sse-retry}: list the tools and call {@code test_reconnection}, whose response stream the server closes
 *       early: the transport resumes it with GET and {@code Last-Event-ID} after the server's {@code retry} delay
 *       (SEP-1699).</li>
 *   <li>{@code request-metadata}: declare elicitation, sampling and roots, connect and list the tools; the server
 *       rejects the first request with {@code -32022} and the client retries it once (SEP-2575).</li>
 *   <li>{@code sep-2322-client-request-state}: declare elicitation (accepting every form with
 *       {@link SchemaValues#formContent plausible content}), list the tools and call each {@code test_mrtr_*} tool:
 *       {@code test_mrtr_echo_state}, {@code test_mrtr_no_state} and {@code test_mrtr_unrelated} at the same time
 *       (the isolation check), then {@code test_mrtr_no_result_type} and {@code test_mrtr_unrelated} again.</li>
 *   <li>{@code http-standard-headers}: list the tools, resources and prompts, and call, read and get each.</li>
 *   <li>{@code http-custom-headers}: list the tools, then make the context's {@code toolCalls} in order.</li>
 *   <li>{@code http-invalid-tool-headers}: list the tools and call each tool the client lists (with its required
 *       arguments): the client must have dropped the ones with invalid {@code x-mcp-header} annotations.</li>
 *   <li>{@code json-schema-ref-no-deref}: list the tools (whose schema has a network {@code $ref} the client must
 *       never fetch).</li>
 *   <li>{@code json-schema-2020-12-preservation}: list the tools and call {@code json_schema_echo} with the
 *       {@code inputSchema} of {@code json_schema_2020_12_tool} exactly as received.</li>
 *   <li>{@code auth/*}: the transport authorizes through {@link McpOAuth} (the public API of
 *       {@code dev.loommcp.auth} only), configured from {@code MCP_CONFORMANCE_CONTEXT} as {@link AuthScenario}
 *       describes (pre-registered credentials, {@code private_key_jwt} or client-secret client credentials,
 *       enterprise-managed authorization, workload identity, the client-ID metadata document
 *       {@value AuthScenario#CLIENT_METADATA_DOCUMENT} where the authorization server supports them, else dynamic
 *       registration, DPoP in {@code auth/dpop*}; the authorization code through
 *       {@link dev.loommcp.auth.AuthorizationCodeHandler#nonInteractive}). Then connect, list the tools and call
 *       {@value #AUTH_TOOL}. When the client refuses to authorize (a protected-resource {@code resource} or an
 *       {@code issuer} that does not match, an RFC 9207 {@code iss} that does not, the step-up limit reached) the
 *       call fails with {@link dev.loommcp.auth.McpAuthorizationException}: exit code {@value #EXIT_FAILED}, which
 *       the suite accepts in the scenarios that expect a refusal.</li>
 *   <li>{@code sep-2640-client-*}: the skills extension ({@code io.modelcontextprotocol/skills}) through
 *       {@link McpSkills}: list the skills (every page, entries checked); in {@code sep-2640-client-no-prefetch} stop
 *       there (nothing of a skill is fetched before it is loaded); in the {@code -verify-*} scenarios load the first
 *       skill as a host would (its {@code SKILL.md}: size, digest, frontmatter) and on success read its other files,
 *       each verified. A refused skill is reported on the error stream with the check that failed: exit code
 *       {@value #EXIT_FAILED} (the suite allows it there; what it checks is that no file is read after the refused
 *       {@code SKILL.md}).</li>
 * </ul>
 *
 * <p>Messages go to the given error stream; nothing secret is ever printed. Thread-safe (no shared state).
 */
public final class ConformanceClient {

    /** The environment variable naming the scenario. */
    public static final String SCENARIO_ENV = ConformanceSettings.SCENARIO_ENV;
    /** Exit code: the scenario's work was done. */
    public static final int EXIT_OK = 0;
    /** Exit code: the scenario's work failed (an exception, or an unexpected result). */
    public static final int EXIT_FAILED = 1;
    /** Exit code: the scenario is unknown or not supported by this client, or the environment is unusable. */
    public static final int EXIT_UNSUPPORTED = 2;

    /** The skills extension's scenarios (SEP-2640): list only, or load the first skill verified. */
    static final Set<String> SKILL_SCENARIOS = Set.of("sep-2640-client-no-prefetch", "sep-2640-client-verify-digest",
            "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter");

    /** The scenarios this client knows besides the {@code auth/} family. */
    public static final Set<String> SCENARIOS = java.util.stream.Stream.concat(Stream.of("initialize", "tools_call",
            "elicitation-sep1034-client-defaults", "sse-retry", "request-metadata", "sep-2322-client-request-state",
            "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers", "json-schema-ref-no-deref",
            "json-schema-2020-12-preservation"), SKILL_SCENARIOS.stream()).collect(Collectors.toUnmodifiableSet());

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);
    /** The tool every {@code auth/*} scenario server offers. */
    static final String AUTH_TOOL = "test-tool";
    static final Implementation CLIENT_INFO = Implementation.of("loom-mcp-conformance", "0.2.0");

    private final ConformanceSettings settings;
    private final URI endpoint;
    private final McpOAuth oauth;
    private final PrintWriter err;

    private ConformanceClient(ConformanceSettings settings, URI endpoint, McpOAuth oauth, PrintWriter err) {
        this.settings = settings;
        this.endpoint = endpoint;
        this.oauth = oauth;
        this.err = err;
    }

    /**
     * Runs the scenario the environment names.
     *
     * @param serverUrl   the scenario server's MCP endpoint, as the suite gives it
     * @param environment how to read an environment variable ({@code null} when unset)
     * @param err         where progress and errors go
     * @return the exit code: {@value #EXIT_OK} done, {@value #EXIT_FAILED} failed, {@value #EXIT_UNSUPPORTED}
     *         unknown or unsupported scenario, an unusable environment variable, or a bad URL
     */
    public static int run(String serverUrl, Function<String, String> environment, PrintWriter err) {
        try {
            return run(serverUrl, ConformanceSettings.fromEnvironment(environment), err);
        } catch (IllegalArgumentException e) {
            say(err, "conformance: " + e.getMessage());
            return EXIT_UNSUPPORTED;
        } finally {
            err.flush();
        }
    }

    private static int run(String serverUrl, ConformanceSettings settings, PrintWriter err) {
        String scenario = settings.scenario();
        boolean auth = scenario.startsWith("auth/");
        if (!auth && !SCENARIOS.contains(scenario)) {
            say(err, "conformance: unknown scenario " + scenario + " (known: " + String.join(", ",
                    SCENARIOS.stream().sorted().toList()) + ", auth/*)");
            return EXIT_UNSUPPORTED;
        }
        URI endpoint;
        try {
            endpoint = URI.create(serverUrl);
            HttpTransport.newBuilder(endpoint); // validates
        } catch (RuntimeException e) {
            say(err, "conformance: not a usable http(s) server URL: " + e.getMessage());
            return EXIT_UNSUPPORTED;
        }
        say(err, "conformance: " + scenario + ", protocol mode " + settings.protocolMode());
        if (auth) {
            McpOAuth oauth;
            try {
                oauth = AuthScenario.oauth(settings.context());
            } catch (IllegalArgumentException | IllegalStateException e) {
                say(err, "conformance: " + e.getMessage());
                return EXIT_UNSUPPORTED;
            }
            try (oauth) {
                return run(new ConformanceClient(settings, endpoint, oauth, err));
            }
        }
        return run(new ConformanceClient(settings, endpoint, null, err));
    }

    private static int run(ConformanceClient client) {
        String scenario = client.settings.scenario();
        PrintWriter err = client.err;
        try {
            if (client.oauth != null) {
                return client.authorized();
            }
            return switch (scenario) {
                case "initialize" -> client.initialize();
                case "tools_call" -> client.callListedTool(client.builder(), "add_numbers", Map.of("a", 5, "b", 3));
                case "elicitation-sep1034-client-defaults" -> client.elicitationDefaults();
                case "sse-retry" -> client.callListedTool(client.builder(), "test_reconnection", Map.of());
                case "request-metadata" -> client.requestMetadata();
                case "sep-2322-client-request-state" -> client.requestState();
                case "http-standard-headers" -> client.standardHeaders();
                case "http-custom-headers" -> client.customHeaders();
                case "http-invalid-tool-headers" -> client.invalidToolHeaders();
                case "json-schema-ref-no-deref" -> client.listOnly();
                case "json-schema-2020-12-preservation" -> client.schemaEcho();
                case "sep-2640-client-no-prefetch" -> client.skills(false);
                case "sep-2640-client-verify-digest", "sep-2640-client-verify-size",
                     "sep-2640-client-verify-frontmatter" -> client.skills(true);
                default -> EXIT_UNSUPPORTED;
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            say(err, "conformance: " + scenario + " interrupted");
            return EXIT_FAILED;
        } catch (McpException | IllegalArgumentException | IllegalStateException e) {
            say(err, "conformance: " + scenario + " failed: " + e.getClass().getSimpleName() + ": "
                    + e.getMessage());
            return EXIT_FAILED;
        }
    }

    private McpClient.Builder builder() {
        HttpTransport.Builder transport = HttpTransport.newBuilder(endpoint);
        if (oauth != null) {
            transport.authorization(oauth);
        }
        return McpClient.newBuilder(transport.build())
                .clientInfo(CLIENT_INFO)
                .requestTimeout(REQUEST_TIMEOUT)
                .protocolMode(settings.protocolMode());
    }

    /** Connects, saying in which era; the caller closes the client. */
    private McpClient connect(McpClient.Builder builder) throws InterruptedException {
        McpClient c = builder.build();
        try {
            c.connect();
        } catch (InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
        say(err, "conformance: connected, era " + c.era().orElseThrow() + ", protocol "
                + c.protocolVersion().orElseThrow() + c.serverInfo().map(s -> ", server " + s.name()).orElse(""));
        return c;
    }

    @SuppressWarnings("try") // the connect is the scenario; the client is only closed
    private int initialize() throws InterruptedException {
        try (McpClient c = connect(builder())) {
            return EXIT_OK;
        }
    }

    /**
     * The work of every {@code auth/*} scenario once the transport authorizes: connect, list the tools and call
     * {@code test-tool} (two authenticated requests after the handshake: a server that moves to another
     * authorization server after the first, or asks for more scope on the call, is followed).
     */
    private int authorized() throws InterruptedException {
        try (McpClient c = connect(builder())) {
            List<Tool> tools = c.listAllTools();
            say(err, "conformance: the server lists " + tools.stream().map(Tool::name).toList());
            if (find(tools, AUTH_TOOL).isEmpty()) {
                say(err, "conformance: the server does not list the tool " + AUTH_TOOL);
                return EXIT_FAILED;
            }
            return call(c, AUTH_TOOL, Map.of());
        }
    }

    private int elicitationDefaults() throws InterruptedException {
        McpClient.Builder b = builder()
                // accept every form with nothing typed in: the client fills in the schema's defaults (SEP-1034);
                // a request without "mode" is a form
                .elicitationHandler(request -> request.isUrlMode()
                        ? ElicitResult.decline() : ElicitResult.accept(Map.of()))
                .applyElicitationDefaults(true);
        return callListedTool(b, "test_client_elicitation_defaults", Map.of());
    }

    private int callListedTool(McpClient.Builder builder, String name, Map<String, Object> args)
            throws InterruptedException {
        try (McpClient c = connect(builder)) {
            if (find(c.listAllTools(), name).isEmpty()) {
                say(err, "conformance: the server does not list the tool " + name);
                return EXIT_FAILED;
            }
            return call(c, name, args);
        }
    }

    private int requestMetadata() throws InterruptedException {
        // declare every client capability, so that the suite sees each declared as an object
        McpClient.Builder b = builder()
                .elicitationHandler(request -> ElicitResult.decline())
                .samplingHandler(request -> CreateMessageResult.ofText(CLIENT_INFO.name(), "not sampled"))
                .rootsHandler(List::of);
        try (McpClient c = connect(b)) {
            say(err, "conformance: the server lists " + c.listAllTools().size() + " tool(s)");
            return EXIT_OK;
        }
    }

    private int requestState() throws InterruptedException {
        McpClient.Builder b = builder().elicitationHandler(request -> request.isUrlMode()
                ? ElicitResult.decline() : ElicitResult.accept(SchemaValues.formContent(request.requestedSchema())));
        try (McpClient c = connect(b)) {
            List<Tool> tools = c.listAllTools();
            List<String> missing = new ArrayList<>();
            for (String name : List.of("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated",
                    "test_mrtr_no_result_type")) {
                if (find(tools, name).isEmpty()) {
                    missing.add(name);
                }
            }
            if (!missing.isEmpty()) {
                say(err, "conformance: the server does not list " + missing);
                return EXIT_FAILED;
            }
            // two multi-round calls and an unrelated one at the same time: nothing of one may leak into another
            List<String> parallel = List.of("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated");
            List<CompletableFuture<CallToolResult>> futures = new ArrayList<>();
            for (String name : parallel) {
                futures.add(c.callToolAsync(name, Map.of(), dev.loommcp.RequestOptions.DEFAULT));
            }
            int status = EXIT_OK;
            for (int i = 0; i < parallel.size(); i++) {
                status = Math.max(status, report(parallel.get(i), join(futures.get(i))));
            }
            status = Math.max(status, call(c, "test_mrtr_no_result_type", Map.of()));
            return Math.max(status, call(c, "test_mrtr_unrelated", Map.of()));
        }
    }

    private int standardHeaders() throws InterruptedException {
        try (McpClient c = connect(builder())) {
            int status = EXIT_OK;
            for (Tool t : c.listAllTools()) {
                status = Math.max(status, call(c, t.name(), SchemaValues.requiredArguments(t.inputSchema())));
            }
            for (Resource r : c.listAllResources()) {
                ReadResourceResult read = c.readResource(r.uri());
                say(err, "conformance: read " + r.uri() + ": " + read.contents().size() + " content(s)");
            }
            for (Prompt p : c.listAllPrompts()) {
                Map<String, String> args = new LinkedHashMap<>();
                for (PromptArgument a : p.arguments() == null ? List.<PromptArgument>of() : p.arguments()) {
                    if (Boolean.TRUE.equals(a.required())) {
                        args.put(a.name(), SchemaValues.TEXT);
                    }
                }
                GetPromptResult got = c.getPrompt(p.name(), args);
                say(err, "conformance: got prompt " + p.name() + ": " + got.messages().size() + " message(s)");
            }
            return status;
        }
    }

    private int customHeaders() throws InterruptedException {
        List<ConformanceSettings.ToolCall> calls = settings.toolCalls();
        if (calls.isEmpty()) {
            say(err, "conformance: " + ConformanceSettings.CONTEXT_ENV + " names no toolCalls");
            return EXIT_FAILED;
        }
        try (McpClient c = connect(builder())) {
            List<Tool> tools = c.listAllTools();
            int status = EXIT_OK;
            for (ConformanceSettings.ToolCall call : calls) {
                if (find(tools, call.name()).isEmpty()) {
                    say(err, "conformance: the client does not list the tool " + call.name());
                    status = EXIT_FAILED;
                    continue;
                }
                status = Math.max(status, call(c, call.name(), call.arguments()));
            }
            return status;
        }
    }

    private int invalidToolHeaders() throws InterruptedException {
        try (McpClient c = connect(builder())) {
            List<Tool> tools = c.listAllTools();
            say(err, "conformance: the client lists " + tools.stream().map(Tool::name).toList());
            int status = EXIT_OK;
            for (Tool t : tools) {
                status = Math.max(status, call(c, t.name(), SchemaValues.requiredArguments(t.inputSchema())));
            }
            return status;
        }
    }

    private int listOnly() throws InterruptedException {
        try (McpClient c = connect(builder())) {
            say(err, "conformance: the client lists " + c.listAllTools().stream().map(Tool::name).toList());
            return EXIT_OK;
        }
    }

    /**
     * The skills scenarios: list (nothing of a skill fetched); with {@code load}, load the first skill verified and
     * read its files.
     */
    private int skills(boolean load) throws InterruptedException {
        try (McpClient c = connect(builder())) {
            McpSkills skills = McpSkills.of(c);
            if (!skills.isSupported()) {
                say(err, "conformance: the server does not declare " + McpSkills.EXTENSION);
                return EXIT_FAILED;
            }
            SkillListing listing = skills.list(RequestOptions.DEFAULT);
            say(err, "conformance: the server lists the skills " + listing.skills().stream().map(SkillEntry::uri)
                    .toList() + (listing.invalid().isEmpty() ? "" : " and " + listing.invalid().size()
                    + " invalid entr(ies), refused: " + listing.invalid()));
            if (!load) {
                return EXIT_OK;
            }
            if (listing.skills().isEmpty()) {
                say(err, "conformance: there is no valid skill to load");
                return EXIT_FAILED;
            }
            try {
                LoadedSkill loaded = skills.load(listing.skills().getFirst(), RequestOptions.DEFAULT);
                List<SkillFile> files = loaded.readAll(RequestOptions.DEFAULT);
                say(err, "conformance: loaded " + loaded.name() + ", " + files.size() + " file(s) verified");
                return EXIT_OK;
            } catch (SkillVerificationException e) {
                say(err, "conformance: skill refused (" + e.check() + "): " + e.getMessage());
                return EXIT_FAILED;
            }
        }
    }

    private int schemaEcho() throws InterruptedException {
        try (McpClient c = connect(builder())) {
            List<Tool> tools = c.listAllTools();
            Optional<Tool> focal = find(tools, "json_schema_2020_12_tool");
            if (focal.isEmpty() || find(tools, "json_schema_echo").isEmpty()) {
                say(err, "conformance: the server does not list json_schema_2020_12_tool and json_schema_echo");
                return EXIT_FAILED;
            }
            Map<String, Object> args = new LinkedHashMap<>();
            args.put("schema", focal.get().inputSchema()); // exactly as received
            return call(c, "json_schema_echo", args);
        }
    }

    private int call(McpClient c, String name, Map<String, Object> args) throws InterruptedException {
        return report(name, c.callTool(name, args));
    }

    private int report(String name, CallToolResult r) {
        if (r.error()) {
            say(err, "conformance: " + name + " returned a result with isError true");
            return EXIT_FAILED;
        }
        say(err, "conformance: " + name + " returned " + r.content().size() + " content block(s)");
        return EXIT_OK;
    }

    private static CallToolResult join(CompletableFuture<CallToolResult> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Prints one line and flushes it, so that it keeps its place among the SDK's own log lines on stderr. */
    private static void say(PrintWriter err, String line) {
        err.println(line);
        err.flush();
    }

    private static Optional<Tool> find(List<Tool> tools, String name) {
        return tools.stream().filter(t -> t.name().equals(name)).findFirst();
    }
}
