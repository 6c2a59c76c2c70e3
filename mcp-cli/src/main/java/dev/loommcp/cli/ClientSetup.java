package dev.loommcp.cli;

import dev.loommcp.McpClient;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Root;
import dev.loommcp.hosts.HttpServerConfig;
import dev.loommcp.hosts.ServerConfig;
import dev.loommcp.hosts.SseServerConfig;
import dev.loommcp.hosts.StdioServerConfig;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.transport.http.HeaderRules;
import dev.loommcp.transport.stdio.StdioTransport;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Client construction for {@link McpCommand}: checks the connection options that belong together, turns them into a
 * transport ({@code --stdio} or {@code --http}), the roots ({@code --root}) and the elicitation answer
 * ({@code --elicit}), the protocol era ({@code --protocol}, {@code --probe-timeout}), and builds the client from
 * them. The same elicitation and roots handlers answer the legacy era's server requests and the modern era's
 * {@code input_required} results (multi round-trip requests), and the OAuth provider of the authorization options
 * ({@link CliAuth}). Every problem with an option is a usage error
 * ({@link ParameterException}, exit 2) that names the option; option values are never echoed where they may be
 * secrets ({@code --header}, {@code --env}).
 *
 * <p>Not thread-safe: made and used by one command; only the elicitation note runs on the client's handler thread.
 */
final class ClientSetup {

    /**
     * The connection options as given on the command line.
     *
     * @param stdio          {@code --stdio}, or {@code null}
     * @param http           {@code --http}, or {@code null}
     * @param headers        the {@code --header} values, in order
     * @param env            the {@code --env} values, in order
     * @param inheritEnv     {@code --inherit-env}
     * @param cwd            {@code --cwd}, or {@code null}
     * @param echoStderr     {@code --stderr}
     * @param timeout        {@code --timeout}, or {@code null} for the client's default
     * @param connectTimeout {@code --connect-timeout}, or {@code null} for {@link McpCommand#DEFAULT_CONNECT_TIMEOUT}
     * @param maxMessageSize {@code --max-message-size} in bytes, or {@code null} for the transport's default
     * @param roots          the {@code --root} directories, in order
     * @param elicit         {@code --elicit}, or {@code null}
     * @param protocol       {@code --protocol}, or {@code null} for the client's default ({@link ProtocolMode#AUTO})
     * @param probeTimeout   {@code --probe-timeout}, or {@code null} for the client's default
     * @param auth           the authorization options ({@code --oauth}, {@code --client-credentials}, ...)
     * @param config         {@code --config}, or {@code null}
     * @param server         {@code --server}, or {@code null}
     * @param sse            {@code --sse}, or {@code null}
     */
    record Options(String stdio, String http, List<String> headers, List<String> env, boolean inheritEnv, Path cwd,
                   boolean echoStderr, Duration timeout, Duration connectTimeout, Integer maxMessageSize,
                   List<Path> roots, String elicit, ProtocolMode protocol, Duration probeTimeout,
                   AuthOptions auth, Path config, String server, String sse) {
    }

    private final Options options;
    private final CommandLine commandLine;
    private final Function<String, String> environment;
    private final PrintWriter err;
    /** The OAuth provider of {@code --http} with an authorization option, or {@code null}. */
    private CliAuth auth;
    /** The client's transport, once built. */
    private McpTransport transport;

    /**
     * Creates the setup of one command.
     *
     * @param options     the options as given
     * @param commandLine the command line, for usage errors
     * @param environment how to read our environment variables ({@code --env NAME})
     * @param err         standard error, escaped, for the elicitation note
     */
    ClientSetup(Options options, CommandLine commandLine, Function<String, String> environment, PrintWriter err) {
        this.options = options;
        this.commandLine = commandLine;
        this.environment = environment;
        this.err = err;
    }

    /**
     * Builds the client the options describe (not connected yet).
     *
     * @param stderrTail             collects the stdio server's stderr (and echoes it with {@code --stderr})
     * @param outputSchemaValidation how the client checks {@code structuredContent}
     * @param tasks                  the tasks to install (their driver), never {@code null}
     * @return the client
     * @throws ParameterException for a bad option or a combination of options that do not belong together
     */
    McpClient newClient(StderrTail stderrTail, OutputSchemaValidation outputSchemaValidation, McpTasks tasks) {
        try {
            return buildClient(stderrTail, outputSchemaValidation, tasks);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Explains a failure of the connection: see {@link CliAuth#explain}.
     *
     * @param failure what failed
     * @return {@code failure}, or a timeout of the wait for the browser's authorization
     */
    RuntimeException explain(RuntimeException failure) {
        return auth == null ? failure : auth.explain(failure);
    }

    /**
     * How long a stdio server that the command gave up on (its call failed or timed out) gets after the end of its
     * input and again after SIGTERM, before it is killed: the command then ends within about a second of the failure
     * instead of waiting out the transport's graces (2 s each) for a server that works on and ignores EOF.
     */
    static final Duration ABANDON_GRACE = Duration.ofMillis(250);

    /**
     * Ends a stdio server the command gave up on (its call failed or timed out) with the short graces of
     * {@link #ABANDON_GRACE}: stdin closed, SIGTERM, SIGKILL, the whole tree gone on return. Call before closing the
     * client (whose close of the transport then finds it closed). Nothing for an HTTP server or before a transport
     * was built.
     */
    void abandonServer() {
        if (transport instanceof StdioTransport stdio) {
            stdio.close(ABANDON_GRACE);
        }
    }

    /**
     * Releases what the client's transport uses besides the client: the OAuth provider and its loopback receiver.
     * Call after closing the client. Idempotent.
     */
    void close() {
        if (auth != null) {
            auth.close();
        }
    }

    private McpClient buildClient(StderrTail stderrTail, OutputSchemaValidation outputSchemaValidation,
                                  McpTasks tasks) {
        // with --oauth the handshake may wait for the user in a browser
        Duration connect = options.connectTimeout() != null ? options.connectTimeout()
                : options.auth().oauth() ? CliAuth.OAUTH_CONNECT_TIMEOUT : McpCommand.DEFAULT_CONNECT_TIMEOUT;
        List<Root> rootList = rootList();
        ElicitResult elicitAnswer = elicitAnswer();
        // Ctrl+C, SIGTERM or --timeout: the client cancels the call on the wire, and close() lets that go out first
        transport = transport(stderrTail, connect.plus(McpCommand.STARTUP_MARGIN));
        McpClient.Builder builder = McpClient.newBuilder(transport)
                .clientInfo(Implementation.of(McpCommand.CLIENT_NAME, CliVersion.version()))
                .outputSchemaValidation(outputSchemaValidation)
                .taskSupport(tasks.support())
                .connectTimeout(connect);
        if (options.timeout() != null) {
            builder.requestTimeout(options.timeout());
        }
        if (options.protocol() != null) {
            builder.protocolMode(options.protocol());
        } else if (options.sse() != null) {
            // the HTTP+SSE transport carries the legacy era only (initialize): no server/discover probe over it
            builder.protocolMode(ProtocolMode.LEGACY);
        }
        // each run is a new JVM: AUTO keeps its era verdicts in the user's cache directory (--protocol pins instead)
        Path verdicts = eraVerdictFile(environment);
        if (verdicts != null) {
            builder.eraVerdictCache(verdicts, ERA_VERDICT_TTL);
        }
        if (options.probeTimeout() != null) {
            builder.probeTimeout(options.probeTimeout());
        }
        if (!rootList.isEmpty()) {
            builder.rootsHandler(() -> rootList);
        }
        if (elicitAnswer != null) {
            builder.elicitationHandler(request -> {
                noteElicitation(request, elicitAnswer);
                return elicitAnswer;
            }, false);
        }
        return builder.build();
    }

    /** How long the CLI trusts an era verdict it kept from an earlier run. */
    static final Duration ERA_VERDICT_TTL = Duration.ofHours(24);

    /**
     * The era verdict file of the CLI: {@code $XDG_CACHE_HOME/loom-mcp/era-verdicts.json} when that variable is an
     * absolute path, else {@code $HOME/.cache/loom-mcp/era-verdicts.json}; {@code null} (verdicts in memory only)
     * when neither is set.
     *
     * @param environment how to read the environment
     * @return the file, or {@code null}
     */
    static Path eraVerdictFile(Function<String, String> environment) {
        for (String[] base : new String[][] {{"XDG_CACHE_HOME"}, {"HOME", ".cache"}}) {
            String value = environment.apply(base[0]);
            try {
                if (value != null && !value.isBlank() && Path.of(value).isAbsolute()) {
                    Path dir = base.length > 1 ? Path.of(value, base[1]) : Path.of(value);
                    return dir.resolve("loom-mcp").resolve("era-verdicts.json");
                }
            } catch (java.nio.file.InvalidPathException e) {
                // not a path: try the next one
            }
        }
        return null;
    }

    /** The {@code --root} directories as roots: each must be an existing directory. */
    private List<Root> rootList() {
        List<Root> list = new ArrayList<>();
        for (Path dir : options.roots()) {
            if (!Files.isDirectory(dir)) {
                throw usage("--root " + dir + ": no such directory");
            }
            Path absolute = dir.toAbsolutePath().normalize();
            Path fileName = absolute.getFileName();
            list.add(Root.of(absolute.toUri().toString(), fileName == null ? absolute.toString() : fileName.toString()));
        }
        return List.copyOf(list);
    }

    /** The {@code --elicit} answer, or {@code null} when not given (no elicitation capability then). */
    private ElicitResult elicitAnswer() {
        String elicit = options.elicit();
        if (elicit == null) {
            return null;
        }
        return switch (elicit.strip()) {
            case "decline" -> ElicitResult.decline();
            case "cancel" -> ElicitResult.cancel();
            default -> {
                Object value;
                try {
                    value = Json.readExact(elicit);
                } catch (IllegalArgumentException e) {
                    throw usage("--elicit: expected decline, cancel or a JSON object to accept with; the JSON is "
                            + e.getMessage());
                }
                if (!(value instanceof Map<?, ?> map)) {
                    throw usage("--elicit: expected decline, cancel or a JSON object to accept with, like "
                            + "'{\"name\": \"value\"}'");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> content = (Map<String, Object>) map;
                yield ElicitResult.accept(content);
            }
        };
    }

    /**
     * Notes on stderr what the server asked and what {@code --elicit} answered. Runs on the client's handler
     * thread; never throws (the answer is given whatever happens to the note).
     */
    private void noteElicitation(ElicitRequest request, ElicitResult answer) {
        try {
            PrintWriter e = err;
            e.println("mcp: the server asks: " + Render.oneLine(request.message()) + " (answered "
                    + answer.action() + (answer.content() != null ? " with " + Json.write(answer.content()) : "")
                    + ", from --elicit)");
            e.flush();
        } catch (RuntimeException | Error ignored) {
            // only a note: the answer is what matters to the server
        }
    }

    /**
     * Builds the transport: {@code --stdio} (with {@code --env}, {@code --inherit-env}, {@code --cwd},
     * {@code --stderr}) or {@code --http} (with {@code --header}), and {@code --max-message-size} for both.
     */
    private McpTransport transport(StderrTail tail, Duration startup) {
        String stdio = options.stdio();
        if (options.http() != null && options.sse() != null) {
            throw usage("give either --http or --sse, not both");
        }
        String http = options.http() != null ? options.http() : options.sse();
        String flag = options.sse() != null ? "--sse" : "--http";
        List<String> headers = options.headers();
        Integer maxMessageSize = options.maxMessageSize();
        Path cwd = options.cwd();
        boolean inheritEnv = options.inheritEnv();
        if (options.server() != null && options.config() == null) {
            throw usage("--server names a server of an mcpServers file: give --config FILE too");
        }
        if (options.config() != null) {
            return configuredTransport(tail, startup);
        }
        if (stdio != null && http != null) {
            throw usage("give either --stdio or " + flag + ", not both");
        }
        if (stdio == null && http == null) {
            throw usage("say which server to talk to: --stdio 'COMMAND LINE' or --http URL (or --sse URL)");
        }
        if (stdio != null) {
            if (!headers.isEmpty()) {
                throw usage("--header applies to --http only");
            }
            if (options.auth().any()) {
                throw usage("--oauth, --client-credentials, --client-id, --client-secret-file and --token-cache "
                        + "apply to --http only");
            }
            List<String> argv;
            try {
                argv = ShellWords.split(stdio);
            } catch (IllegalArgumentException e) {
                throw usage("--stdio: " + e.getMessage());
            }
            if (argv.isEmpty()) {
                throw usage("--stdio: the command line is empty");
            }
            try {
                return Transports.stdio(argv, environmentOptions(), inheritEnv, cwd, startup, tail, maxMessageSize);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        if (!options.env().isEmpty() || inheritEnv || cwd != null || options.echoStderr()) {
            throw usage("--env, --inherit-env, --cwd and --stderr apply to --stdio only");
        }
        URI uri;
        try {
            uri = new URI(http);
        } catch (URISyntaxException e) {
            throw usage(flag + ": not a valid URL: " + e.getReason());
        }
        // unix:/path/to.sock[:/http-path]: Streamable HTTP on a unix socket (module mcp-transport-unix), checked by it
        boolean unix = "unix".equalsIgnoreCase(uri.getScheme());
        if (!unix && (uri.getScheme() == null || !(uri.getScheme().equalsIgnoreCase("http")
                || uri.getScheme().equalsIgnoreCase("https")) || uri.getHost() == null)) {
            throw usage(flag + ": expected an http:// or https:// URL with a host, or "
                    + "unix:/path/to.sock[:/http-path]");
        }
        List<Map.Entry<String, String>> parsed = new ArrayList<>();
        for (int i = 0; i < headers.size(); i++) {
            String h = headers.get(i);
            int colon = h.indexOf(':');
            if (colon <= 0) {
                throw usage("--header number " + (i + 1) + " is not of the form 'Name: value'");
            }
            String name = h.substring(0, colon).strip();
            if (!HeaderRules.isToken(name)) {
                throw usage("--header number " + (i + 1) + " has an invalid header name");
            }
            parsed.add(new AbstractMap.SimpleImmutableEntry<>(name, h.substring(colon + 1).strip()));
        }
        auth = CliAuth.open(options.auth(), commandLine, err);
        try {
            return options.sse() != null
                    ? Transports.sse(uri, parsed, maxMessageSize, auth == null ? null : auth.provider())
                    : Transports.http(uri, parsed, maxMessageSize, auth == null ? null : auth.provider());
        } catch (Transports.HeaderRefused e) {
            throw usage("--header number " + (e.index + 1) + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw usage(flag + ": " + e.getMessage());
        }
    }

    /**
     * The transport of the {@code --config} file's server that {@code --server} names (or its only one): the same
     * transports as {@code --stdio} (with the file's {@code env} and {@code cwd}) and {@code --http} (with its
     * {@code headers}).
     */
    private McpTransport configuredTransport(StderrTail tail, Duration startup) {
        if (options.stdio() != null || options.http() != null || options.sse() != null) {
            throw usage("give either --config or --stdio/--http/--sse, not both");
        }
        if (!options.headers().isEmpty() || !options.env().isEmpty() || options.inheritEnv()
                || options.cwd() != null) {
            throw usage("--env, --inherit-env, --cwd and --header do not apply with --config: set them in the file");
        }
        ServerConfig server = HostCommands.select(options.config(), options.server(), environment, commandLine);
        try {
            if (server instanceof StdioServerConfig s) {
                if (options.auth().any()) {
                    throw usage("--oauth, --client-credentials, --client-id, --client-secret-file and --token-cache "
                            + "apply to HTTP servers only; server '" + s.name() + "' is a stdio one");
                }
                return Transports.stdio(s.argv(), s.env(), false, s.cwd(), startup, tail, options.maxMessageSize());
            }
            java.net.URI url = server instanceof HttpServerConfig h ? h.url()
                    : server instanceof SseServerConfig e ? e.url() : null;
            if (url != null) {
                if (options.echoStderr()) {
                    throw usage("--stderr applies to stdio servers only; server '" + server.name() + "' is an "
                            + (server instanceof SseServerConfig ? "HTTP+SSE" : "HTTP") + " one");
                }
                Map<String, String> headers = server instanceof HttpServerConfig h ? h.headers()
                        : ((SseServerConfig) server).headers();
                List<Map.Entry<String, String>> headerList = new ArrayList<>(headers.entrySet());
                auth = CliAuth.open(options.auth(), commandLine, err);
                return server instanceof SseServerConfig
                        ? Transports.sse(url, headerList, options.maxMessageSize(), auth == null ? null : auth.provider())
                        : Transports.http(url, headerList, options.maxMessageSize(),
                                auth == null ? null : auth.provider());
            }
        } catch (IllegalArgumentException e) {
            throw usage("server '" + server.name() + "': " + e.getMessage());
        }
        throw new IllegalStateException("unknown server configuration " + server.getClass());
    }

    /** The {@code --env} options as a map; {@code NAME} alone takes our own value. Values are never printed. */
    private Map<String, String> environmentOptions() {
        List<String> env = options.env();
        Map<String, String> vars = new LinkedHashMap<>();
        for (int i = 0; i < env.size(); i++) {
            String e = env.get(i);
            int eq = e.indexOf('=');
            if (eq == 0) {
                throw usage("--env number " + (i + 1) + " has an empty variable name (expected NAME=VALUE)");
            }
            String name = eq < 0 ? e : e.substring(0, eq);
            String problem = nameProblem(name);
            if (problem != null) {
                // the name is not printed: a malformed --env may well be a value given without its name
                throw usage("--env number " + (i + 1) + ": the variable name contains " + problem
                        + " (expected NAME=VALUE, where NAME has no blanks or control characters)");
            }
            if (eq < 0) {
                String value = environment.apply(e);
                if (value == null) {
                    // not echoed: a bare --env argument may be a secret value typed without its name
                    throw usage("--env number " + (i + 1) + ": there is no such variable in this environment to "
                            + "pass on (use NAME=VALUE to set one)");
                }
                if (value.indexOf('\uFFFD') >= 0 && !Main.isUtf8(System.getProperty("sun.jnu.encoding"))) {
                    // the JVM decoded our environment in a charset that cannot hold it: passing it on would damage it
                    throw usage("--env number " + (i + 1) + ": the variable's value has characters this JVM could "
                            + "not decode in its locale's charset (" + System.getProperty("sun.jnu.encoding")
                            + "); run with a UTF-8 locale (LC_ALL=C.UTF-8) or give NAME=VALUE");
                }
                vars.put(e, value);
            } else {
                vars.put(e.substring(0, eq), e.substring(eq + 1));
            }
        }
        return vars;
    }

    /** What is wrong with an environment variable name, or {@code null} when it is fine. */
    static String nameProblem(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ' ') {
                return "a space";
            }
            if (Character.isISOControl(c)) {
                return String.format(Locale.ROOT, "a control character (U+%04X)", (int) c);
            }
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                return String.format(Locale.ROOT, "a blank (U+%04X)", (int) c);
            }
        }
        return null;
    }

    private ParameterException usage(String message) {
        return new ParameterException(commandLine, message);
    }
}
