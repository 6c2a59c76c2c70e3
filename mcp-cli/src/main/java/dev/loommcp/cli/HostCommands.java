package dev.loommcp.cli;

import dev.loommcp.McpClient;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.RequestOptions;
import dev.loommcp.hosts.HostedTool;
import dev.loommcp.hosts.McpServers;
import dev.loommcp.hosts.McpServersFile;
import dev.loommcp.hosts.RestartPolicy;
import dev.loommcp.hosts.ServerConfig;
import dev.loommcp.hosts.ServerStatus;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.Tool;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The commands over an {@code mcpServers} file ({@code --config}): {@code servers} (each server's name, transport,
 * state, tool count and era) and the aggregated {@code tools} (every server's tools under {@code server__tool}, made
 * to fit a model's name rules by the registry),
 * both through the host registry of {@code mcp-hosts}; and the choice of one server of the file ({@code --server})
 * for every other command. Not thread-safe: made and used by one command.
 */
final class HostCommands {

    /**
     * The registry's log: its warnings (a server that could not start or lost its connection) repeat what these
     * commands print themselves, so only severe records get through. Held here so that the setting stays.
     */
    private static final java.util.logging.Logger HOSTS_LOG = java.util.logging.Logger.getLogger("dev.loommcp.hosts");

    /** The registry's separator between a server's name and its tool's name (its default). */
    static final String SEPARATOR = "__";

    private final Output io;
    private final boolean json;
    private final CommandLine commandLine;
    private final Function<String, String> environment;
    private final Path config;
    private final Duration timeout;
    private final Duration connectTimeout;
    private final dev.loommcp.config.ProtocolMode protocol;
    /** How each server's client checks {@code structuredContent} ({@code call --validate}). */
    private OutputSchemaValidation validation = OutputSchemaValidation.OFF;

    /**
     * Creates the commands of one command line.
     *
     * @param io             where to write
     * @param json           {@code --json}
     * @param commandLine    the command line, for usage errors
     * @param environment    how to read environment variables ({@code ${NAME}} in the file)
     * @param config         {@code --config}
     * @param timeout        {@code --timeout}, or {@code null}
     * @param connectTimeout {@code --connect-timeout}, or {@code null}
     * @param protocol       {@code --protocol}, or {@code null}
     */
    HostCommands(Output io, boolean json, CommandLine commandLine, Function<String, String> environment, Path config,
                 Duration timeout, Duration connectTimeout, dev.loommcp.config.ProtocolMode protocol) {
        this.io = io;
        this.json = json;
        this.commandLine = commandLine;
        this.environment = environment;
        this.config = config;
        this.timeout = timeout;
        this.connectTimeout = connectTimeout;
        this.protocol = protocol;
    }

    /**
     * Reads the {@code --config} file; every problem is a usage error naming the file, the server and the field.
     * {@code ${workspaceFolder}} is the current directory; {@code ${input:id}} is asked on the terminal
     * ({@link #askOnTerminal}), and refused when there is none.
     *
     * @param file        the file
     * @param environment how to read environment variables
     * @param commandLine for the usage error
     * @return the servers, in the file's order
     * @throws ParameterException if the file cannot be read or is not valid, or an input has no answer
     */
    static List<ServerConfig> read(Path file, Function<String, String> environment, CommandLine commandLine) {
        try {
            return McpServersFile.read(file, McpServersFile.Options.defaults().withEnvironment(environment)
                    .withInputs(HostCommands::askOnTerminal).withWorkspaceFolder(Path.of("").toAbsolutePath()));
        } catch (IOException e) {
            throw new ParameterException(commandLine, "--config " + file + ": cannot read it ("
                    + e.getClass().getSimpleName() + ")");
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, "--config " + e.getMessage());
        }
    }

    /**
     * Asks for an input of the file on the terminal: its description as the prompt, a password without echo; an
     * empty answer takes the input's default when it has one.
     *
     * @param input the input
     * @return the answer
     * @throws IllegalArgumentException when there is no terminal to ask on (a usage error naming the input)
     */
    static String askOnTerminal(McpServersFile.Input input) {
        java.io.Console console = Output.Terminal.isInteractive() ? System.console() : null;
        if (console == null) {
            throw new IllegalArgumentException("there is no terminal to ask for it on (run mcp in a terminal, or "
                    + "put the value in the file or an environment variable: ${env:NAME})");
        }
        String prompt = TerminalText.escape(input.description())
                + (input.defaultValue() == null || input.password() ? "" : " [" + TerminalText.escape(
                        input.defaultValue()) + "]") + ": ";
        String answer;
        if (input.password()) {
            char[] secret = console.readPassword("%s", prompt);
            answer = secret == null ? null : new String(secret);
            if (secret != null) {
                java.util.Arrays.fill(secret, '\0');
            }
        } else {
            answer = console.readLine("%s", prompt);
        }
        if (answer == null) {
            throw new IllegalArgumentException("no answer (the terminal's input ended)");
        }
        return answer.isEmpty() && input.defaultValue() != null ? input.defaultValue() : answer;
    }

    /**
     * Picks the server of the file a single-server command talks to: {@code --server NAME}, or the only one.
     *
     * @param file        {@code --config}
     * @param server      {@code --server}, or {@code null}
     * @param environment how to read environment variables
     * @param commandLine for usage errors
     * @return the server's configuration
     * @throws ParameterException if the file is not valid, has no such server, or has several and none was named
     */
    static ServerConfig select(Path file, String server, Function<String, String> environment,
                               CommandLine commandLine) {
        List<ServerConfig> all = read(file, environment, commandLine);
        List<String> names = all.stream().map(ServerConfig::name).toList();
        if (server == null) {
            if (all.size() == 1) {
                return all.getFirst();
            }
            throw new ParameterException(commandLine, "--config " + file.getFileName() + " has " + all.size()
                    + " servers: say which with --server NAME (" + String.join(", ", names) + ")");
        }
        return all.stream().filter(c -> c.name().equals(server)).findFirst().orElseThrow(() ->
                new ParameterException(commandLine, "--server " + TerminalText.escape(server) + ": there is no such "
                        + "server in " + file.getFileName() + " (the servers are: " + String.join(", ", names) + ")"));
    }

    /**
     * {@code servers}: starts every server at once and prints one row each. Exit 0 when every server is ready, 3
     * when one is not (its failure is noted on stderr).
     *
     * @return the exit code
     * @throws InterruptedException if interrupted
     */
    int servers() throws InterruptedException {
        return withRegistry(registry -> {
            List<ServerStatus> statuses = registry.startAll();
            if (json) {
                List<Object> list = new ArrayList<>();
                for (ServerStatus s : statuses) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("name", s.name());
                    m.put("transport", s.transport());
                    m.put("state", lower(s.state().name()));
                    m.put("tools", s.toolCount() < 0 ? null : s.toolCount());
                    m.put("era", s.era() == null ? null : lower(s.era().name()));
                    m.put("error", s.lastError());
                    list.add(m);
                }
                io.printJson(Map.of("servers", list));
            } else {
                List<List<String>> rows = new ArrayList<>();
                for (ServerStatus s : statuses) {
                    rows.add(List.of(s.name(), s.transport(), lower(s.state().name()),
                            s.toolCount() < 0 ? "-" : Integer.toString(s.toolCount()),
                            s.era() == null ? "-" : lower(s.era().name())));
                }
                if (rows.isEmpty()) {
                    io.out().println("(no servers)");
                } else {
                    Render.table(io.out(), List.of("NAME", "TRANSPORT", "STATE", "TOOLS", "ERA"), rows, io.width());
                }
            }
            return notReady(statuses);
        });
    }

    /**
     * {@code tools} without {@code --server}: every server's tools under their namespaced names. Exit 0 when every
     * server is ready, 3 when one is not (its tools are missing; the failure is noted on stderr).
     *
     * @return the exit code
     * @throws InterruptedException if interrupted
     */
    int tools() throws InterruptedException {
        return withRegistry(registry -> {
            List<HostedTool> tools = registry.tools();
            if (json) {
                List<Object> list = new ArrayList<>();
                for (HostedTool t : tools) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("name", t.name());
                    m.put("server", t.server());
                    m.put("tool", Json.toPlain(t.tool()));
                    m.put("fullName", t.fullName());
                    list.add(m);
                }
                io.printJson(Map.of("tools", list));
            } else if (tools.isEmpty()) {
                io.out().println("(no tools)");
            } else {
                List<List<String>> rows = new ArrayList<>();
                for (HostedTool t : tools) {
                    Tool tool = t.tool();
                    rows.add(List.of(t.name(), Render.title(tool), tool.description() == null ? ""
                            : tool.description()));
                }
                Render.table(io.out(), List.of("NAME", "TITLE", "DESCRIPTION"), rows, io.width());
            }
            return notReady(registry.statuses());
        });
    }

    /**
     * {@code call SERVER__TOOL} without {@code --server}: the call goes through the registry's routing
     * ({@link McpServers#callTool}), which starts the one server it names. {@code KEY=VALUE} arguments are typed by
     * the tool's input schema, found in the aggregated tool list (which starts every server of the file); a name the
     * list does not hold is refused by the registry, naming what is missing (exit 2).
     *
     * @param name       the namespaced name
     * @param form       the arguments as given
     * @param given      the JSON-object arguments, or {@code null} when {@code form} holds {@code KEY=VALUE} words
     * @param validation how the result's {@code structuredContent} is checked ({@code --validate})
     * @param timeoutHint the {@code --timeout} as typed or its default, to name in a timeout message
     * @return the exit code: as {@code call}
     * @throws InterruptedException if interrupted
     */
    int call(String name, KeyValues.Form form, Map<String, Object> given, OutputSchemaValidation validation,
             String timeoutHint) throws InterruptedException {
        this.validation = validation;
        return withRegistry(registry -> {
            ProgressBar bar = new ProgressBar(io.rawErr(), io.progressEnabled(), io.width() > 0 ? io.width() : 80);
            try {
                Map<String, Object> args = given;
                if (args == null) {
                    // the name as listed, or SERVER__TOOL of the server's own tool name, where the list shows
                    // another form of it (the registry routes either)
                    HostedTool listed = registry.tools().stream().filter(t -> t.name().equals(name)
                            || (t.server() + SEPARATOR + t.tool().name()).equals(name)).findFirst().orElse(null);
                    args = CommandArguments.typedArguments(listed == null ? null : listed.tool(), name, form,
                            commandLine);
                }
                CallToolResult result = registry.callTool(name, args,
                        RequestOptions.newBuilder().progressListener(bar).build());
                bar.finish();
                if (json) {
                    io.printJson(Json.toPlain(result));
                    return result.error() ? ExitCodes.TOOL_ERROR : ExitCodes.OK;
                }
                return CallCommand.printToolResult(io, name, result);
            } catch (ParameterException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                // the registry's routing: a name with no such server, or a tool the server does not list
                throw new ParameterException(commandLine, e.getMessage());
            } catch (RuntimeException e) {
                return Failures.report(e, io.rawOut(), io.err(), json, null, timeoutHint);
            } finally {
                bar.finish();
            }
        });
    }

    /** Notes every server that is not ready on stderr; exit 3 when there is one. */
    private int notReady(List<ServerStatus> statuses) {
        io.out().flush();
        int code = ExitCodes.OK;
        for (ServerStatus s : statuses) {
            if (s.state() != dev.loommcp.hosts.ServerState.READY) {
                io.err().println("mcp: server '" + s.name() + "' is " + lower(s.state().name())
                        + (s.lastError() == null ? "" : ": " + s.lastError()));
                code = ExitCodes.TRANSPORT;
            }
        }
        io.err().flush();
        return code;
    }

    @FunctionalInterface
    private interface RegistryAction {
        int run(McpServers registry) throws InterruptedException;
    }

    private int withRegistry(RegistryAction action) throws InterruptedException {
        HOSTS_LOG.setLevel(java.util.logging.Level.SEVERE);
        List<ServerConfig> configs = read(config, environment, commandLine);
        Duration connect = connectTimeout != null ? connectTimeout : McpCommand.DEFAULT_CONNECT_TIMEOUT;
        McpServers registry = McpServers.newBuilder().addAll(configs)
                .startupTimeout(connect)
                .readyTimeout(connect.plusSeconds(1))
                .restartPolicy(RestartPolicy.NEVER)
                .clientCustomizer((server, builder) -> customize(builder))
                .build();
        Main.OPEN_CLIENTS.incrementAndGet();
        try {
            return action.run(registry);
        } finally {
            try {
                registry.close();
            } finally {
                Main.OPEN_CLIENTS.decrementAndGet();
            }
        }
    }

    private void customize(McpClient.Builder builder) {
        builder.clientInfo(Implementation.of(McpCommand.CLIENT_NAME, CliVersion.version()));
        if (timeout != null) {
            builder.requestTimeout(timeout);
        }
        if (protocol != null) {
            builder.protocolMode(protocol);
        }
        Path verdicts = ClientSetup.eraVerdictFile(environment); // as for one server: see there
        if (verdicts != null) {
            builder.eraVerdictCache(verdicts, ClientSetup.ERA_VERDICT_TTL);
        }
        builder.outputSchemaValidation(validation);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
