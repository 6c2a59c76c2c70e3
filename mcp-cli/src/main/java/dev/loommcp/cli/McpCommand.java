package dev.loommcp.cli;

import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.cli.conformance.ConformanceClient;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.DiscoverResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.PromptArgument;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.Tool;
import dev.loommcp.tasks.McpTasks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code mcp} command: connects to one MCP server (a child process over stdio, or Streamable HTTP) and runs one
 * command against it. Most subcommands are methods; {@link CallCommand}, {@link RequestCommand},
 * {@link NotifyCommand}, {@link CompleteCommand}, {@link TasksCommand}, {@link LogoutCommand} and the skills
 * commands of {@link SkillCommands} are classes. The connection options are on
 * this class and may be given before or after the subcommand name. {@link ClientSetup} turns the connection options
 * into a transport and a client, {@link CommandArguments} a command's argument words into what it sends,
 * {@link Output} holds the streams the commands write to, {@link Render} formats human output and {@link Failures}
 * turns an exception into its message and exit code.
 *
 * <p>Not thread-safe: one instance serves one command line.
 */
@Command(name = "mcp",
        mixinStandardHelpOptions = true,
        versionProvider = CliVersion.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "A command-line client for MCP (Model Context Protocol) servers, built on loom-mcp.",
            "Connects to one server, runs one command and exits.",
        },
        synopsisSubcommandLabel = "COMMAND",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:call: the tool returned a result with isError: true",
            "2:usage error: unknown option, bad argument or JSON, --stdio program not found, feature not in "
                    + "this build",
            "3:connection or transport failure: the server process failed or exited, HTTP error, I/O error",
            "4:the server answered with a JSON-RPC error; a task ended failed, was cancelled by the server or "
                    + "another client, or waits for input mcp cannot give",
            "5:timeout: --timeout for a request, --connect-timeout for start-up and the handshake (also a "
                    + "server that stays silent or writes no JSON-RPC), or a task's TTL",
            "6:protocol error: the server broke MCP",
            "7:skill refused: a skill's file failed its size, digest or frontmatter check or is not listed, or the "
                    + "entry is invalid or too large",
            "70:internal error (a bug in mcp)",
            "130:interrupted by this command's Ctrl+C (SIGINT)",
            "141:standard output (or error) is a pipe whose reader went away (mcp ... | head): ended quietly, as "
                    + "SIGPIPE ends a Unix tool",
            "143:terminated (SIGTERM)",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  mcp --stdio 'npx -y @modelcontextprotocol/server-everything stdio' tools",
            "  mcp --stdio 'node server.js' call echo '{\"message\":\"hi\"}'",
            "  mcp --stdio 'node server.js' call add a=1 b=2 tags='[\"x\"]'",
            "  mcp --stdio 'node server.js' complete prompt greet name Al",
            "  mcp --stdio 'node server.js' request resources/templates/list",
            "  mcp --http http://127.0.0.1:3001/mcp \\",
            "      --header 'Authorization: Bearer TOKEN' tools",
            "  mcp --stdio 'uvx my-server' --env API_KEY --timeout 2m --json \\",
            "      call search '{\"q\":\"mcp\"}'",
            "  mcp --http http://127.0.0.1:3001/mcp --protocol modern listen --tools",
            "  mcp --stdio 'node tasks-server.js' call --task slow_compute '{\"seconds\":30}'",
            "  mcp --http http://127.0.0.1:3001/mcp tasks get TASK-ID",
            "  mcp --stdio 'node server.js' skill load notes --to ./skills/notes",
            "  mcp --config mcp.json servers",
            "  mcp --config mcp.json tools",
            "  mcp --config mcp.json --server files call read_file '{\"path\":\"a.txt\"}'",
            "  mcp --config mcp.json call files__read_file path=a.txt",
            "",
            "Environment:",
            "  MCP_PROGRESS=always|never  progress bar even without a terminal, or never",
            "  COLUMNS                    line width for tables",
            "  MCP_CONFORMANCE_SCENARIO   the scenario the conformance command runs",
        })
final class McpCommand {

    /** The default of {@code --timeout} (the client's default request timeout). */
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    /** The default of {@code --connect-timeout}. */
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /**
     * How much longer than {@code --connect-timeout} the stdio transport waits for a server's first message. The
     * handshake's own deadline ({@code --connect-timeout}) therefore always fires first: a server that stays silent,
     * or writes only lines that are not JSON-RPC, is reported as a timeout of the handshake (exit 5, naming
     * {@code --connect-timeout}) rather than by whichever of two equal bounds happens to fire first.
     */
    static final Duration STARTUP_MARGIN = Duration.ofSeconds(2);

    /** The name and version sent as {@code clientInfo}. */
    static final String CLIENT_NAME = "loom-mcp-cli";

    @Spec
    private CommandSpec spec;

    /* Every option may appear before and after the command name (ScopeType.INHERIT). picocli would silently keep the
       last of two occurrences of a single-value option, or start a fresh list after the command name for a
       repeatable one, so each option goes through a setter: single-value ones refuse a second occurrence, repeatable
       ones (--header, --env) append. */
    private String stdio;
    private String http;
    private String sse;
    @Mixin
    private AuthOptions auth; // read by LogoutCommand through the mixin's name
    private final List<String> headers = new ArrayList<>();
    private final List<String> env = new ArrayList<>();
    private Path cwd;
    private Duration timeout;
    private Duration connectTimeout;

    @Option(names = "--stdio", paramLabel = "COMMAND", scope = ScopeType.INHERIT, order = 1,
            description = {"Run the server as a child process and talk to it over stdin/stdout. The value is split "
                    + "into words like a POSIX shell would (quotes and backslashes; no variables, no shell runs)."})
    private void stdio(String commandLine) {
        stdio = once("--stdio", stdio, commandLine);
    }

    @Option(names = "--http", paramLabel = "URL", scope = ScopeType.INHERIT, order = 2,
            description = "Talk to a Streamable HTTP server at this endpoint URL: http(s)://..., or "
                    + "unix:/path/to.sock[:/http-path] for a server on a unix domain socket.")
    private void http(String url) {
        http = once("--http", http, url);
    }

    @Option(names = "--sse", paramLabel = "URL", scope = ScopeType.INHERIT, order = 2,
            description = "Talk to a server that offers only the HTTP+SSE transport of protocol 2024-11-05 at this "
                    + "SSE URL (often .../sse). --http falls back to it by itself when the server refuses "
                    + "Streamable HTTP; --sse skips that attempt.")
    private void sse(String url) {
        sse = once("--sse", sse, url);
    }

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", scope = ScopeType.INHERIT, order = 3,
            description = "With --http: send this header on every request (repeatable; values are never printed).")
    private void header(String header) {
        headers.add(header);
    }

    @Option(names = "--env", paramLabel = "NAME[=VALUE]", scope = ScopeType.INHERIT, order = 4,
            description = {"With --stdio: set a variable in the server's environment (repeatable). NAME alone "
                    + "passes our own value of NAME. By default the server gets only a small safe list of our "
                    + "variables (PATH, HOME, LANG, ...) plus these."})
    private void env(String variable) {
        env.add(variable);
    }

    @Option(names = "--inherit-env", scope = ScopeType.INHERIT, order = 5,
            description = "With --stdio: pass our whole environment to the server.")
    private boolean inheritEnv;

    @Option(names = "--cwd", paramLabel = "DIR", scope = ScopeType.INHERIT, order = 6,
            description = "With --stdio: the server's working directory.")
    private void cwd(Path dir) {
        cwd = once("--cwd", cwd, dir);
    }

    @Option(names = "--stderr", scope = ScopeType.INHERIT, order = 7,
            description = {"With --stdio: echo the server's stderr to ours. Without it the server's stderr is kept "
                    + "quiet, and its last lines are shown when the command fails."})
    private boolean echoStderr;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Durations.class, scope = ScopeType.INHERIT,
            order = 8,
            description = {"Bound of each request: 500ms, 30s, 2m, 1h or ISO-8601 (PT30S), at most 365 days. "
                    + "Default 60s; call --task and tasks result have no default (they wait until the task ends or "
                    + "its TTL passes)."})
    private void timeout(Duration duration) {
        timeout = once("--timeout", timeout, duration);
    }

    @Option(names = "--connect-timeout", paramLabel = "DURATION", converter = Durations.class,
            scope = ScopeType.INHERIT, order = 9,
            description = {"Bound of starting the server and the initialize handshake (same form as --timeout). "
                    + "Default 30s."})
    private void connectTimeout(Duration duration) {
        connectTimeout = once("--connect-timeout", connectTimeout, duration);
    }

    @Option(names = "--json", scope = ScopeType.INHERIT, order = 10,
            description = {"Print exactly what the server returned for the command, as JSON (list commands join "
                    + "every page into one result). A JSON-RPC error is printed as {\"error\": {...}}."})
    private boolean json;

    private Integer maxMessageSize;
    private final List<Path> roots = new ArrayList<>();
    private String elicit;

    @Option(names = "--max-message-size", paramLabel = "SIZE", converter = Sizes.class, scope = ScopeType.INHERIT,
            order = 11,
            description = {"The largest message accepted from the server: bytes, or with a unit (512KiB, 16MiB, "
                    + "1GiB; also K, M, G), from 1KiB to 1GiB. Default 16MiB."})
    private void maxMessageSize(Integer bytes) {
        maxMessageSize = once("--max-message-size", maxMessageSize, bytes);
    }

    /**
     * Returns {@code --max-message-size}.
     *
     * @return the limit in bytes, or {@code null} for the transports' default
     */
    Integer maxMessageSize() {
        return maxMessageSize;
    }

    @Option(names = "--root", paramLabel = "DIR", scope = ScopeType.INHERIT, order = 12,
            description = {"Offer this directory to the server as a root (repeatable): declares the roots "
                    + "capability and answers roots/list with these directories as file:// URIs."})
    private void root(Path dir) {
        roots.add(dir);
    }

    @Option(names = "--elicit", paramLabel = "ANSWER", scope = ScopeType.INHERIT, order = 13,
            description = {"Answer the server's elicitation requests (declares the elicitation capability, form "
                    + "mode): decline, cancel, or a JSON object to accept with as the content. The server's "
                    + "question and the answer given are noted on stderr."})
    private void elicit(String answer) {
        elicit = once("--elicit", elicit, answer);
    }

    private ProtocolMode protocol;
    private Duration probeTimeout;

    @Option(names = "--protocol", paramLabel = "MODE", converter = ProtocolModes.class, scope = ScopeType.INHERIT,
            order = 14,
            description = {"Which protocol era to speak: auto (the default: probe with server/discover, then the "
                    + "modern era if the server speaks it, else the legacy one), legacy (initialize; never probe), "
                    + "modern (server/discover; never fall back), or one version such as 2025-11-25 or "
                    + ProtocolMode.MODERN_PROTOCOL_VERSION + "."})
    private void protocol(ProtocolMode mode) {
        protocol = once("--protocol", protocol, mode);
    }

    @Option(names = "--probe-timeout", paramLabel = "DURATION", converter = Durations.class,
            scope = ScopeType.INHERIT, order = 15,
            description = {"With --protocol auto over --stdio: how long the probe waits for the server's answer "
                    + "to server/discover before it takes silence for a legacy server (same form as --timeout; part "
                    + "of --connect-timeout). Default 3s."})
    private void probeTimeout(Duration duration) {
        probeTimeout = once("--probe-timeout", probeTimeout, duration);
    }

    private Path config;
    private String server;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT, order = 16,
            description = {"An mcpServers JSON file (Claude Desktop's, Cursor's or VS Code's, comments allowed; "
                    + "$${NAME} is read from the environment, $${workspaceFolder} is the current directory, "
                    + "$${input:ID} is asked on the terminal): 'servers' and 'tools' cover every server in it, other "
                    + "commands the one --server names (or its only one). Replaces --stdio and --http."})
    private void config(Path file) {
        config = once("--config", config, file);
    }

    @Option(names = "--server", paramLabel = "NAME", scope = ScopeType.INHERIT, order = 17,
            description = "With --config: the server of the file to talk to.")
    private void server(String name) {
        server = once("--server", server, name);
    }

    private final Function<String, String> environment;

    /** How the client checks {@code structuredContent} ({@code call --validate}). */
    private OutputSchemaValidation outputSchemaValidation = OutputSchemaValidation.OFF;

    /** Where the command writes (its streams are the command line's, read on each use). */
    private final Output io;

    /** Set while a connection is open, for error reports. */
    private StderrTail stderrTail;

    /**
     * Creates the command.
     *
     * @param environment how to read our environment variables ({@code System::getenv} in production)
     */
    McpCommand(Function<String, String> environment) {
        this.environment = environment;
        this.io = new Output(() -> spec.commandLine(), environment);
    }

    // ------------------------------------------------------------------------------------------------ commands

    @Command(name = "info", mixinStandardHelpOptions = true,
            description = {"Show the server's name, version, protocol era and version, capabilities and "
            + "instructions (the initialize result; in the modern era the server/discover result, with the "
            + "versions the server supports)."})
    int info() throws InterruptedException {
        return withClient(client -> {
            DiscoverResult discovered = client.discoverResult().orElse(null);
            if (json) {
                io.printJson(Json.toPlain(discovered != null ? discovered : client.initializeResult().orElseThrow()));
            } else if (discovered != null) {
                Implementation who = discovered.serverInfo() != null ? discovered.serverInfo()
                        : client.serverInfo().orElse(null);
                Render.info(io.out(), who, Era.MODERN, ServerFacts.protocolVersion(client),
                        discovered.supportedVersions(), ServerFacts.capabilities(client), discovered.instructions());
            } else {
                InitializeResult r = client.initializeResult().orElseThrow(); // connected, legacy era
                Render.info(io.out(), r.serverInfo(), Era.LEGACY, r.protocolVersion(), null, r.capabilities(),
                        r.instructions());
            }
            return ExitCodes.OK;
        });
    }

    @Command(name = "tools", mixinStandardHelpOptions = true,
            description = {"List the server's tools: name, title and description. With --config and no --server: "
                    + "the tools of every server of the file, named SERVER__TOOL (made to fit ^[a-zA-Z0-9_-]{1,64}$$ "
                    + "when it does not)."})
    int tools() throws InterruptedException {
        if (config != null && server == null && stdio == null && http == null && sse == null) {
            return hostCommands().tools();
        }
        return withClient(client -> {
            if (notOffered(client, ServerFacts.capabilities(client).tools(), "tools", "tools")) {
                return ExitCodes.OK;
            }
            if (json) {
                io.printJson(ServerFacts.listRaw(client, "tools/list", "tools"));
                return ExitCodes.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            for (Tool t : client.listAllTools()) {
                rows.add(List.of(t.name(), Render.title(t), t.description() == null ? "" : t.description()));
            }
            if (rows.isEmpty()) {
                io.out().println("(no tools)");
            } else {
                Render.table(io.out(), List.of("NAME", "TITLE", "DESCRIPTION"), rows, io.width());
            }
            return ExitCodes.OK;
        });
    }

    /**
     * Whether {@code call NAME} goes through the registry of the {@code --config} file: with {@code --config} and no
     * {@code --server} (nor {@code --stdio}, {@code --http}, {@code --sse}), when the name holds the registry's
     * separator ({@code __}), as the names of the aggregated {@code tools} do. Any other name is a tool of the one
     * server {@code --server} names (or the file's only one).
     */
    boolean routesThroughRegistry(String name) {
        return config != null && server == null && stdio == null && http == null && sse == null
                && name.contains(HostCommands.SEPARATOR);
    }

    @Command(name = "servers", mixinStandardHelpOptions = true,
            description = {"With --config: start every server of the file at once and list each: name, transport, "
                    + "state, tool count and protocol era. Exit 3 when one is not ready (named on stderr)."})
    int servers() throws InterruptedException {
        if (config == null) {
            throw usage("servers lists the servers of an mcpServers file: give --config FILE");
        }
        if (server != null || stdio != null || http != null || sse != null) {
            throw usage("servers covers every server of --config; --server, --stdio, --http and --sse do not "
                    + "apply");
        }
        return hostCommands().servers();
    }

    /** The commands over the {@code --config} file. */
    HostCommands hostCommands() {
        if (!headers.isEmpty() || !env.isEmpty() || inheritEnv || cwd != null) {
            throw usage("--env, --inherit-env, --cwd and --header do not apply with --config: set them in the file");
        }
        if (auth.any()) {
            throw usage("--oauth, --client-credentials, --client-id, --client-secret-file and --token-cache apply to "
                    + "one server: pick it with --server NAME");
        }
        return new HostCommands(io, json, spec.commandLine(), environment, config, timeout, connectTimeout, protocol);
    }

    @Command(name = "resources", mixinStandardHelpOptions = true,
            description = "List the server's resources (or, with --templates, its resource "
            + "templates).")
    int resources(@Option(names = "--templates", description = "list resource templates instead")
                  boolean templates) throws InterruptedException {
        return withClient(client -> {
            if (notOffered(client, ServerFacts.capabilities(client).resources(), "resources",
                    templates ? "resourceTemplates" : "resources")) {
                return ExitCodes.OK;
            }
            if (json) {
                io.printJson(templates
                        ? ServerFacts.listRaw(client, "resources/templates/list", "resourceTemplates")
                        : ServerFacts.listRaw(client, "resources/list", "resources"));
                return ExitCodes.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            if (templates) {
                for (ResourceTemplate t : client.listAllResourceTemplates()) {
                    rows.add(List.of(t.uriTemplate(), Render.nz(t.title() != null ? t.title() : t.name()), Render.nz(t.mimeType()),
                            Render.nz(t.description())));
                }
            } else {
                for (Resource r : client.listAllResources()) {
                    rows.add(List.of(r.uri(), Render.nz(r.title() != null ? r.title() : r.name()), Render.nz(r.mimeType()),
                            Render.nz(r.description())));
                }
            }
            if (rows.isEmpty()) {
                io.out().println(templates ? "(no resource templates)" : "(no resources)");
            } else {
                Render.table(io.out(), List.of(templates ? "URI TEMPLATE" : "URI", "NAME", "MIME TYPE", "DESCRIPTION"),
                        rows, io.width());
            }
            return ExitCodes.OK;
        });
    }

    @Command(name = "read", mixinStandardHelpOptions = true,
            description = "Read a resource and print its contents (text as text, binary "
            + "summarized).")
    int read(@Parameters(paramLabel = "URI", description = "the resource URI") String uri)
            throws InterruptedException {
        return withClient(client -> {
            if (json) {
                io.printJson(client.request("resources/read", Map.of("uri", uri), RequestOptions.DEFAULT));
            } else {
                Render.resourceContents(io.out(), client.readResource(uri));
            }
            return ExitCodes.OK;
        });
    }

    @Command(name = "prompts", mixinStandardHelpOptions = true,
            description = "List the server's prompts and their arguments (* = required).")
    int prompts() throws InterruptedException {
        return withClient(client -> {
            if (notOffered(client, ServerFacts.capabilities(client).prompts(), "prompts", "prompts")) {
                return ExitCodes.OK;
            }
            if (json) {
                io.printJson(ServerFacts.listRaw(client, "prompts/list", "prompts"));
                return ExitCodes.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            for (Prompt p : client.listAllPrompts()) {
                Map<String, Boolean> args = new LinkedHashMap<>();
                for (PromptArgument a : p.arguments() == null ? List.<PromptArgument>of() : p.arguments()) {
                    args.put(a.name(), a.required());
                }
                rows.add(List.of(p.name(), Render.nz(p.title()), Render.argumentList(args), Render.nz(p.description())));
            }
            if (rows.isEmpty()) {
                io.out().println("(no prompts)");
            } else {
                Render.table(io.out(), List.of("NAME", "TITLE", "ARGUMENTS", "DESCRIPTION"), rows, io.width());
            }
            return ExitCodes.OK;
        });
    }

    @Command(name = "prompt", mixinStandardHelpOptions = true,
            description = "Get a prompt with arguments and print its messages.")
    int prompt(@Parameters(index = "0", paramLabel = "NAME", description = "the prompt's name") String name,
               @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY=VALUE | JSON-OBJECT",
                       description = {"the arguments: KEY=VALUE words (values are strings as typed; each key must be "
                               + "one of the prompt's arguments), or one JSON object of strings (numbers and "
                               + "booleans are turned into strings); - reads the JSON object from stdin"})
               List<String> arguments) throws InterruptedException {
        CommandArguments words = arguments();
        KeyValues.Form form = words.form(arguments, "the prompt arguments");
        Map<String, String> given = form.isPairs() ? null : words.promptStrings(form.json());
        return withClient(client -> {
            Map<String, String> args = given != null ? given : words.promptArguments(client, name, form);
            if (json) {
                Map<String, Object> params = new LinkedHashMap<>();
                params.put("name", name);
                params.put("arguments", args);
                io.printJson(client.request("prompts/get", params, RequestOptions.DEFAULT));
            } else {
                Render.prompt(io.out(), client.getPrompt(name, args));
            }
            return ExitCodes.OK;
        });
    }

    @Command(name = "ping", mixinStandardHelpOptions = true,
            description = "Ping the server and print the round-trip time.")
    int ping() throws InterruptedException {
        return withClient(client -> {
            long start = System.nanoTime();
            Map<String, Object> result = client.request("ping", null, RequestOptions.DEFAULT);
            long micros = (System.nanoTime() - start) / 1_000;
            if (json) {
                io.printJson(result);
            } else {
                io.out().println(String.format(Locale.ROOT, "pong (%.1f ms)", micros / 1000.0));
            }
            return ExitCodes.OK;
        });
    }

    @Command(name = "listen", mixinStandardHelpOptions = true,
            description = {"Listen for the server's notifications and print each as it arrives, one line each "
            + "(with --json one JSON object per line), until Ctrl+C (exit 130) or the server ends the subscription "
            + "(exit 0). Without options: every list change (tools, prompts, resources). In the modern era this is "
            + "subscriptions/listen; in the legacy era the session's notifications and resources/subscribe. What the "
            + "server refuses is noted on stderr."})
    int listen(@Option(names = "--tools", description = "tool list changes") boolean tools,
               @Option(names = "--prompts", description = "prompt list changes") boolean prompts,
               @Option(names = "--resources", description = "resource list changes") boolean resources,
               @Option(names = "--resource", paramLabel = "URI", description = "updates of this resource "
                       + "(repeatable)") List<String> uris) throws InterruptedException {
        List<String> subscribed = uris == null ? List.of() : uris;
        for (String uri : subscribed) {
            if (uri.isBlank() || uri.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                String shown = uri.chars().mapToObj(c -> c < 0x20 || c == 0x7f ? String.format("\\x%02x", c)
                        : String.valueOf((char) c)).collect(java.util.stream.Collectors.joining());
                throw usage("--resource needs a resource URI; '" + shown + "' is "
                        + (uri.isBlank() ? "blank" : "not one (it holds control characters)"));
            }
        }
        SubscriptionFilter filter = !tools && !prompts && !resources && subscribed.isEmpty()
                ? SubscriptionFilter.allListChanges()
                : new SubscriptionFilter(tools, prompts, resources, subscribed);
        return withClient(client -> new Listening(io, json).run(client, filter));
    }

    @Command(name = "conformance", mixinStandardHelpOptions = true,
            description = {"Act as the client of the MCP conformance suite: run the "
            + "scenario named by MCP_CONFORMANCE_SCENARIO against the server at URL, at the protocol version "
            + "MCP_CONFORMANCE_PROTOCOL_VERSION names (unset: auto), with the JSON context MCP_CONFORMANCE_CONTEXT "
            + "gives. Exit code 0 when the scenario ran, 1 when it failed, 2 for an unknown or unsupported scenario "
            + "or an unusable variable."})
    int conformance(@Parameters(paramLabel = "URL", description = "the scenario server's URL") String url) {
        String scenario = environment.apply(ConformanceClient.SCENARIO_ENV);
        if (scenario == null || scenario.isBlank()) {
            io.err().println("mcp: " + ConformanceClient.SCENARIO_ENV + " is not set (the conformance suite sets it to the scenario's "
                    + "name)");
            return ExitCodes.USAGE;
        }
        return ConformanceClient.run(url, environment, io.err());
    }

    /** Returns the {@code --timeout} given, or {@code null}. */
    Duration timeout() {
        return timeout;
    }

    /** Refuses an empty or blank task id before anything is started or sent (exit 2). */
    void requireTaskId(String taskId) {
        if (taskId == null || taskId.isBlank()) {
            throw usage("TASK-ID is empty: give the id that call --task noted (mcp: task ID: ...)");
        }
    }

    /** The task commands, writing where this command writes. */
    TaskCommands taskCommands() {
        return new TaskCommands(io, json, elicit != null, !roots.isEmpty(), optionText("--timeout"));
    }

    /** Sets how the client checks {@code structuredContent} ({@code call --validate}); before the client is made. */
    void outputSchemaValidation(OutputSchemaValidation validation) {
        outputSchemaValidation = validation;
    }

    /** Returns where the command writes. */
    Output io() {
        return io;
    }

    /** Returns whether {@code --json} was given. */
    boolean json() {
        return json;
    }

    /** Returns the reader of a command's argument words; its usage errors are this (the root) command line's. */
    CommandArguments arguments() {
        return new CommandArguments(spec.commandLine(), io);
    }

    /**
     * Handles a list command against a server without the capability it needs: instead of a request the server
     * would refuse (a JSON-RPC error, exit 4), one line on stdout saying so ({@code --json}: an empty list), exit 0.
     *
     * @param client     the connected client (its era names the result that declared the capabilities)
     * @param capability the server's capability object, {@code null} when it was not declared
     * @param name       the capability's name, as in {@code initialize} and {@code server/discover}
     * @param itemsKey   the key of the list in the result, for {@code --json}
     * @return whether the server lacks the capability (the output is printed)
     */
    private boolean notOffered(McpClient client, Object capability, String name, String itemsKey) {
        if (capability != null) {
            return false;
        }
        if (json) {
            io.printJson(Map.of(itemsKey, List.of()));
        } else {
            io.out().println("(the server does not offer " + name + ": its " + ServerFacts.handshakeName(client)
                    + " result declares no '" + name + "' capability)");
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------------ connection

    /** What a command does with a connected client. */
    @FunctionalInterface
    interface ClientAction {
        int run(McpClient client) throws InterruptedException;
    }

    /**
     * Builds the transport from the options, connects, runs the action and closes the client, turning every
     * failure into its exit code and message.
     */
    int withClient(ClientAction action) throws InterruptedException {
        return withTasks((client, tasks) -> action.run(client));
    }

    /** What a task command does with a connected client and its tasks. */
    @FunctionalInterface
    interface TasksAction {
        int run(McpClient client, McpTasks tasks) throws InterruptedException;
    }

    /**
     * Builds the transport from the options, connects a client with tasks installed (a server may answer any
     * {@code call} with a task, which the client then drives to its result), runs the action and closes the client,
     * turning every failure into its exit code and message.
     */
    int withTasks(TasksAction action) throws InterruptedException {
        stderrTail = new StderrTail(echoStderr ? io.err() : null);
        ClientSetup.Options options = new ClientSetup.Options(stdio, http, List.copyOf(headers), List.copyOf(env),
                inheritEnv, cwd, echoStderr, timeout, connectTimeout, maxMessageSize, List.copyOf(roots), elicit,
                protocol, probeTimeout, auth, config, server, sse);
        McpTasks tasks = McpTasks.create();
        ClientSetup setup = new ClientSetup(options, spec.commandLine(), environment, io.err());
        McpClient client = setup.newClient(stderrTail, outputSchemaValidation, tasks);
        boolean connected = false;
        boolean failed = false;
        Main.OPEN_CLIENTS.incrementAndGet();
        try {
            client.connect();
            connected = true;
            int code = action.run(client, tasks);
            io.out().flush();
            return code;
        } catch (ParameterException e) {
            throw e;
        } catch (InterruptedException e) {
            Failures.report(e, io.rawOut(), io.err(), json, stderrTail, null);
            throw e;
        } catch (RuntimeException e) {
            failed = true;
            int code = Failures.report(connected ? e : setup.explain(e), io.rawOut(), io.err(), json, stderrTail,
                    connected
                    ? timeoutHint("--timeout", DEFAULT_REQUEST_TIMEOUT)
                    : timeoutHint("--connect-timeout", auth.oauth() ? CliAuth.OAUTH_CONNECT_TIMEOUT
                            : DEFAULT_CONNECT_TIMEOUT), stdio != null);
            return code;
        } finally {
            try {
                if (failed) {
                    // a server that works on and ignores EOF must not hold the exit for the transport's full
                    // graces (2 s after EOF, 2 s after SIGTERM): it is ended with short ones, in full all the same
                    setup.abandonServer();
                }
                client.close();
            } finally {
                setup.close();
                Main.OPEN_CLIENTS.decrementAndGet();
            }
        }
    }

    /**
     * Names the option that bounded what timed out, for the message: {@code --timeout 9s} as typed, or
     * {@code --timeout, default 60s} when it was not given.
     */
    String timeoutHint(String option, Duration defaultValue) {
        return timeoutHint(option, optionText(option), defaultValue);
    }

    /**
     * Names a timeout option for a message.
     *
     * @param option       the option's name
     * @param typed        its value as typed, or {@code null} when it was not given
     * @param defaultValue its default, in whole seconds
     * @return {@code --timeout 9s} or {@code --timeout, default 60s}
     */
    static String timeoutHint(String option, String typed, Duration defaultValue) {
        return typed != null ? option + " " + typed : option + ", default " + defaultValue.toSeconds() + "s";
    }

    /** The value of an option as typed on the command line, or {@code null} when it was not given. */
    private String optionText(String option) {
        CommandLine.ParseResult pr = spec.root().commandLine().getParseResult();
        String value = null;
        while (pr != null) {
            if (pr.hasMatchedOption(option)) {
                value = pr.matchedOption(option).stringValues().getLast();
            }
            pr = pr.subcommand();
        }
        return value;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Sets a single-value option, refusing a second occurrence (before or after the command name). */
    private <T> T once(String option, T current, T value) {
        if (current != null) {
            throw usage(option + " given twice");
        }
        return value;
    }

    /** A usage error (exit 2) on the root command line, whose message carries no command name. */
    ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
