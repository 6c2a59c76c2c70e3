package dev.loommcp.cli;

import dev.loommcp.RequestOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * The {@code request} command: sends any JSON-RPC request, with params given as {@code KEY=VALUE} words or one JSON
 * object ({@link CommandArguments#rawParams}), and prints its result as JSON. The connection options are the
 * parent's ({@link McpCommand}).
 *
 * <p>Not thread-safe: made by picocli for one command line.
 */
@Command(name = "request", mixinStandardHelpOptions = true,
        description = {"Send any JSON-RPC request and print its result as JSON. A JSON-RPC error is printed as "
                + "for the other commands (exit 4; with --json the error object on stdout)."})
final class RequestCommand implements Callable<Integer> {

    @ParentCommand
    private McpCommand parent;

    @Parameters(index = "0", paramLabel = "METHOD", description = "the method, like tools/list")
    private String method;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY=VALUE | JSON-OBJECT",
            description = {"the params: one JSON object (- reads it from stdin), or KEY=VALUE words "
                    + "(each value is JSON when it parses as JSON, else a string); none: no params"})
    private List<String> params;

    /** Created by picocli. */
    RequestCommand() {
    }

    /**
     * Runs the command.
     *
     * @return the exit code
     * @throws picocli.CommandLine.ParameterException for a method or params that are not usable
     * @throws InterruptedException                   if the command is interrupted (Ctrl+C)
     */
    @Override
    public Integer call() throws InterruptedException {
        Map<String, Object> p = parent.arguments().rawParams(method, params);
        return parent.withClient(client -> {
            parent.io().printJson(client.request(method, p, RequestOptions.DEFAULT));
            return ExitCodes.OK;
        });
    }
}
