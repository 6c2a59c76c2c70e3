package dev.loommcp.cli;

import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * The {@code call} command: calls a tool and prints its result. It routes the call and its argument words: a
 * namespaced name {@code SERVER__TOOL} with {@code --config} and no {@code --server} goes through the host registry
 * ({@link HostCommands}), any other name to the one server; {@code KEY=VALUE} words are typed by the tool's input
 * schema ({@link CommandArguments}); {@code --task} runs it as a task ({@link TaskCommands}). The connection options
 * are the parent's ({@link McpCommand}).
 *
 * <p>Not thread-safe: made by picocli for one command line.
 */
@Command(name = "call", mixinStandardHelpOptions = true,
        description = {"Call a tool and print its result block by block. Exit code 1 when the "
        + "result has isError: true. Progress is drawn on stderr when it is a terminal."})
final class CallCommand implements Callable<Integer> {

    @ParentCommand
    private McpCommand parent;

    @Parameters(index = "0", paramLabel = "NAME", description = {"the tool's name; with --config and no "
            + "--server, a namespaced name SERVER__TOOL as 'tools' lists it"})
    private String name;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY=VALUE | JSON-OBJECT",
            description = {"the arguments: KEY=VALUE words, each value typed by the tool's input schema "
            + "(a=1 tags='[\"x\"]' message=hi), or one JSON object (default {}); - reads the JSON "
            + "object from stdin"})
    private List<String> arguments;

    @Option(names = "--validate", description = {"read the tool list first and check the result's "
            + "structuredContent against the tool's outputSchema (JSON Schema); a mismatch exits 6"})
    private boolean validate;

    @Option(names = "--task", description = {"Call the tool as a task: its id and each status change "
            + "are noted on stderr, then the final result is printed. Ctrl+C cancels the task "
            + "(tasks/cancel) and exits 130; --timeout, when given, bounds the wait too (then the task is "
            + "cancelled; no default). Input the task asks for is answered from --elicit and --root; input "
            + "mcp cannot give is named, the task is left as it is, exit 4. Modern era: the tasks extension "
            + "(the server decides whether the call becomes a task); legacy era: a task-augmented call when "
            + "the server and the tool allow it."})
    private boolean task;

    /** Created by picocli. */
    CallCommand() {
    }

    /**
     * Runs the command.
     *
     * @return the exit code: {@link ExitCodes#TOOL_ERROR} for a result with {@code isError: true}
     * @throws picocli.CommandLine.ParameterException for arguments that do not parse or fit the tool's schema, and
     *                                                for options that do not go together
     * @throws InterruptedException                   if the command is interrupted (Ctrl+C)
     */
    @Override
    public Integer call() throws InterruptedException {
        Output io = parent.io();
        boolean json = parent.json();
        CommandArguments words = parent.arguments();
        KeyValues.Form form = words.form(arguments, "the tool arguments");
        Map<String, Object> given = form.isPairs() ? null : words.jsonObject(form.json(), "the tool arguments");
        if (validate && json) {
            throw parent.usage("--validate checks the parsed result; it cannot be combined with --json, which "
                    + "prints the result exactly as received");
        }
        OutputSchemaValidation validation = validate ? OutputSchemaValidation.FAIL : OutputSchemaValidation.OFF;
        parent.outputSchemaValidation(validation);
        if (parent.routesThroughRegistry(name)) {
            if (task) {
                throw parent.usage("call --task needs one server: pick it with --server NAME and give the tool's "
                        + "own name");
            }
            return parent.hostCommands().call(name, form, given, validation,
                    parent.timeoutHint("--timeout", McpCommand.DEFAULT_REQUEST_TIMEOUT));
        }
        if (task) {
            return parent.withTasks((client, tasks) -> {
                Map<String, Object> args = words.toolArguments(client, name, form, given, validate);
                return parent.taskCommands().callAsTask(client, tasks, name, args, parent.timeout());
            });
        }
        return parent.withClient(client -> {
            Map<String, Object> args = words.toolArguments(client, name, form, given, validate);
            ProgressBar bar = new ProgressBar(io.rawErr(), io.progressEnabled(), io.width() > 0 ? io.width() : 80);
            RequestOptions options = RequestOptions.newBuilder().progressListener(bar).build();
            try {
                if (json) {
                    Map<String, Object> params = new LinkedHashMap<>();
                    params.put("name", name);
                    params.put("arguments", args);
                    Map<String, Object> result = client.request("tools/call", params, options);
                    bar.finish();
                    io.printJson(result);
                    return Boolean.TRUE.equals(result.get("isError")) ? ExitCodes.TOOL_ERROR : ExitCodes.OK;
                }
                CallToolResult result = client.callTool(name, args, options);
                bar.finish();
                return printToolResult(io, name, result);
            } finally {
                bar.finish();
            }
        });
    }

    /**
     * Prints a tool's result block by block, and for a result with {@code isError: true} a note on stderr.
     *
     * @param io     where to write
     * @param name   the tool's name as the command was given it
     * @param result the result
     * @return {@link ExitCodes#TOOL_ERROR} for an error result, else {@link ExitCodes#OK}
     */
    static int printToolResult(Output io, String name, CallToolResult result) {
        Render.toolResult(io.out(), result);
        if (result.error()) {
            io.out().flush();
            io.err().println("mcp: tool '" + name + "' returned an error result (isError: true)");
            return ExitCodes.TOOL_ERROR;
        }
        return ExitCodes.OK;
    }
}
