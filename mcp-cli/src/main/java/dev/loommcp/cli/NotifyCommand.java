package dev.loommcp.cli;

import dev.loommcp.RequestOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * The {@code notify} command: sends any JSON-RPC notification after the handshake, with params as for
 * {@link RequestCommand}, and prints nothing. The connection options are the parent's ({@link McpCommand}).
 *
 * <p>Not thread-safe: made by picocli for one command line.
 */
@Command(name = "notify", mixinStandardHelpOptions = true,
        description = {"Send any JSON-RPC notification (after the handshake) and exit; nothing is printed."})
final class NotifyCommand implements Callable<Integer> {

    @ParentCommand
    private McpCommand parent;

    @Parameters(index = "0", paramLabel = "METHOD", description = "the method, like "
            + "notifications/roots/list_changed")
    private String method;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "KEY=VALUE | JSON-OBJECT",
            description = "the params, as for request")
    private List<String> params;

    /** Created by picocli. */
    NotifyCommand() {
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
            client.notify(method, p, RequestOptions.DEFAULT);
            return ExitCodes.OK;
        });
    }
}
