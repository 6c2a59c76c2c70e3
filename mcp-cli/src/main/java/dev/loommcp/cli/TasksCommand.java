package dev.loommcp.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The {@code tasks} command: the server's tasks by id ({@code list}, {@code get}, {@code cancel},
 * {@code result}). A task started by {@code call --task} (or by another client of the same server) keeps running
 * on the server; these commands reach it from a new connection. Over stdio a new connection is a new server
 * process, which knows none of the previous one's tasks: use them over HTTP, or within one server's life.
 */
@Command(name = "tasks", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = {"Work with the server's tasks by id: list (legacy era: tasks/list), get (tasks/get), "
                + "cancel (tasks/cancel) and result (wait for the result: tasks/result in the legacy era, "
                + "polling in the modern one). Start one with: mcp call --task NAME JSON."})
final class TasksCommand {
    @CommandLine.ParentCommand
    private McpCommand parent;

    /** Created by picocli. */
    TasksCommand() {
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"List the server's tasks: id, status, creation time and message (tasks/list; "
                    + "2025-11-25 tasks only: the modern era's tasks extension has no listing)."})
    int list() throws InterruptedException {
        return parent.withTasks((client, tasks) -> parent.taskCommands().list(client, tasks,
                (method, key) -> ServerFacts.listRaw(client, method, key)));
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = "Show a task's status (tasks/get): its input requests while it waits for input, its "
                    + "result or error once it ended.")
    int get(@Parameters(paramLabel = "TASK-ID", description = "the task's id") String taskId)
            throws InterruptedException {
        parent.requireTaskId(taskId);
        return parent.withTasks((client, tasks) -> parent.taskCommands().get(client, tasks, taskId));
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Ask the server to cancel a task (tasks/cancel; the server may still let it end "
                    + "completed or failed) and show its status after.")
    int cancel(@Parameters(paramLabel = "TASK-ID", description = "the task's id") String taskId)
            throws InterruptedException {
        parent.requireTaskId(taskId);
        return parent.withTasks((client, tasks) -> parent.taskCommands().cancel(client, tasks, taskId));
    }

    @Command(name = "result", mixinStandardHelpOptions = true,
            description = {"Wait for a task's result and print it like call (exit 1 for isError: true; a task "
                    + "that failed with a JSON-RPC error exits 4). Legacy era: tasks/result; modern era: the task "
                    + "is polled to its end. Status changes are noted on stderr. A watcher only: Ctrl+C (exit 130) "
                    + "or --timeout (exit 5; no default) stops watching and sends no tasks/cancel (use tasks "
                    + "cancel). Input the task asks for is answered from --elicit and --root; input mcp cannot "
                    + "give is named (exit 4) and the task is left as it is. A task cancelled by the server or "
                    + "another client exits 4."})
    int result(@Parameters(paramLabel = "TASK-ID", description = "the task's id") String taskId)
            throws InterruptedException {
        parent.requireTaskId(taskId);
        return parent.withTasks((client, tasks) -> parent.taskCommands().result(client, tasks, taskId,
                parent.timeout()));
    }
}
