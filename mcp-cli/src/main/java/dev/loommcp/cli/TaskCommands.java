package dev.loommcp.cli;

import dev.loommcp.Era;
import dev.loommcp.McpClient;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.tasks.TaskSnapshot;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the task commands do once connected: {@code call --task} (start a task, note each status change on stderr,
 * print the final result) and {@code tasks list|get|cancel|result}. Human output goes through {@link Render};
 * {@code --json} prints what the server returned (for {@code call --task} and {@code tasks result}: the final
 * {@code CallToolResult}).
 *
 * <p>Not thread-safe, except the status notes, which a task's listener writes from the driver's threads.
 */
final class TaskCommands {

    private final Output io;
    private final boolean json;

    /**
     * Creates the task commands of one command line.
     *
     * @param io   where to write
     * @param json whether {@code --json} was given
     */
    TaskCommands(Output io, boolean json) {
        this.io = io;
        this.json = json;
    }

    /**
     * Calls a tool as a task and waits for its result: notes the task's id and each status change on stderr, then
     * prints the result like {@code call}. An interrupt (Ctrl+C) cancels the task ({@code tasks/cancel}, done by the
     * task's {@code await}) and propagates (exit 130).
     *
     * @param client  the connected client
     * @param tasks   the client's tasks
     * @param name    the tool's name
     * @param args    its arguments
     * @param wait    how long to wait for the task to end ({@code --timeout}; then the task is cancelled), or
     *                {@code null} to wait until it ends (or its TTL passes)
     * @return the exit code: 0, or 1 for a result with {@code isError: true}
     * @throws InterruptedException if interrupted (the task is cancelled first, best effort)
     */
    int callAsTask(McpClient client, McpTasks tasks, String name, Map<String, Object> args, Duration wait)
            throws InterruptedException {
        McpTask task = tasks.callToolAsTask(name, args, RequestOptions.DEFAULT);
        StatusNotes notes = new StatusNotes(io.err());
        if (task.answeredAtOnce()) {
            // the handle stands for a plain result: it has no id the server knows
            io.err().println("mcp: the server answered at once: no task was created");
            io.err().flush();
            return printResult(name, task.await(RequestOptions.DEFAULT));
        }
        notes.note(task.snapshot(), true);
        CallToolResult result;
        try (AutoCloseable ignored = task.addListener((t, s) -> notes.note(s, false))) {
            result = task.await(wait == null ? RequestOptions.DEFAULT : RequestOptions.timeout(wait));
            notes.note(task.snapshot(), false);
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception closing) {
            throw new IllegalStateException(closing); // a listener registration does not throw when closed
        }
        return printResult(name, result);
    }

    /**
     * Lists the server's tasks ({@code tasks/list}, legacy era): a table, or with {@code --json} every page joined.
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param raw    lists every page raw, for {@code --json}
     * @return {@link ExitCodes#OK}
     * @throws InterruptedException if interrupted
     */
    int list(McpClient client, McpTasks tasks, RawLister raw) throws InterruptedException {
        if (json && client.era() == Era.LEGACY) {
            io.printJson(raw.listAll("tasks/list", "tasks"));
            return ExitCodes.OK;
        }
        // in the modern era this refuses before anything is sent (the extension has no tasks/list)
        List<TaskSnapshot> all = tasks.list(RequestOptions.DEFAULT);
        if (all.isEmpty()) {
            io.out().println("(no tasks)");
            return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (TaskSnapshot s : all) {
            rows.add(List.of(s.taskId(), s.status().wireName(), s.createdAt() == null ? "" : s.createdAt().toString(),
                    s.statusMessage() == null ? "" : s.statusMessage()));
        }
        Render.table(io.out(), List.of("TASK ID", "STATUS", "CREATED", "MESSAGE"), rows, io.width());
        return ExitCodes.OK;
    }

    /**
     * Prints a task's status ({@code tasks/get}).
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param taskId the task's id
     * @return {@link ExitCodes#OK}
     * @throws InterruptedException if interrupted
     */
    int get(McpClient client, McpTasks tasks, String taskId) throws InterruptedException {
        if (json) {
            io.printJson(client.request("tasks/get", Map.of("taskId", taskId), RequestOptions.DEFAULT));
            return ExitCodes.OK;
        }
        TaskSnapshot s = tasks.task(taskId).get(RequestOptions.DEFAULT);
        printSnapshot(io.out(), s);
        return ExitCodes.OK;
    }

    /**
     * Asks the server to cancel a task ({@code tasks/cancel}) and says so; cancellation is cooperative, so the
     * task's status is shown as the server reports it right after. A task that has already ended is left alone
     * (nothing is sent but its {@code tasks/get}).
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param taskId the task's id
     * @return {@link ExitCodes#OK}
     * @throws InterruptedException if interrupted
     */
    int cancel(McpClient client, McpTasks tasks, String taskId) throws InterruptedException {
        if (json) {
            io.printJson(client.request("tasks/cancel", Map.of("taskId", taskId), RequestOptions.DEFAULT));
            return ExitCodes.OK;
        }
        McpTask task = tasks.task(taskId);
        TaskSnapshot before = task.get(RequestOptions.DEFAULT);
        if (before.status().isTerminal()) {
            // nothing to cancel (a 2025-11-25 server would answer -32602 to the request)
            io.out().println("task " + taskId + " has already ended: " + before.status().wireName()
                    + "; nothing to cancel");
            return ExitCodes.OK;
        }
        task.cancel(RequestOptions.DEFAULT);
        TaskSnapshot after = task.get(RequestOptions.DEFAULT);
        io.out().println("asked the server to cancel task " + taskId + "; its status is now "
                + after.status().wireName() + (after.statusMessage() == null ? ""
                : " (" + Render.oneLine(after.statusMessage()) + ")"));
        return ExitCodes.OK;
    }

    /**
     * Waits for a task's result and prints it like {@code call}: legacy era {@code tasks/result}, modern era the
     * task polled to its end (input it asks for is answered by {@code --elicit} and {@code --root}).
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param taskId the task's id
     * @param wait   how long to wait ({@code --timeout}; then the task is cancelled), or {@code null} for no bound
     * @return the exit code: 0, or 1 for a result with {@code isError: true}
     * @throws InterruptedException if interrupted (the task is cancelled first, best effort)
     */
    int result(McpClient client, McpTasks tasks, String taskId, Duration wait) throws InterruptedException {
        McpTask task = tasks.task(taskId);
        StatusNotes notes = new StatusNotes(io.err());
        CallToolResult result;
        try (AutoCloseable ignored = task.addListener((t, s) -> notes.note(s, false))) {
            result = task.await(wait == null ? RequestOptions.DEFAULT : RequestOptions.timeout(wait));
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception closing) {
            throw new IllegalStateException(closing);
        }
        return printResult("task " + taskId, result);
    }

    private int printResult(String what, CallToolResult result) {
        if (json) {
            io.printJson(Json.toPlain(result));
        } else {
            Render.toolResult(io.out(), result);
        }
        if (result.error()) {
            io.out().flush();
            io.err().println("mcp: " + (what.startsWith("task ") ? what : "tool '" + what + "'")
                    + " returned an error result (isError: true)");
            return ExitCodes.TOOL_ERROR;
        }
        return ExitCodes.OK;
    }

    /**
     * Prints a task snapshot as aligned {@code key value} lines, then its input requests, error or result.
     *
     * @param out where to print
     * @param s   the snapshot
     */
    static void printSnapshot(PrintWriter out, TaskSnapshot s) {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("task", s.taskId());
        rows.put("status", s.status().wireName());
        if (s.statusMessage() != null) {
            rows.put("message", Render.oneLine(s.statusMessage()));
        }
        rows.put("era", s.era() == Era.MODERN ? "modern (tasks extension)" : "legacy (2025-11-25 tasks)");
        if (s.createdAt() != null) {
            rows.put("created", s.createdAt().toString());
        }
        if (s.lastUpdatedAt() != null) {
            rows.put("updated", s.lastUpdatedAt().toString());
        }
        rows.put("ttl", s.ttl() == null ? "unlimited" : millis(s.ttl()));
        if (s.pollInterval() != null) {
            rows.put("poll every", millis(s.pollInterval()));
        }
        if (!s.inputRequests().isEmpty()) {
            rows.put("waiting for", String.join(", ", s.inputRequests().keySet()));
        }
        rows.forEach((k, v) -> out.println(String.format(Locale.ROOT, "%-12s%s", k, v)));
        if (s.error() != null) {
            out.println("error       " + s.error().code() + ": " + Render.oneLine(s.error().message()));
        }
        if (s.result() != null) {
            out.println("result:");
            Render.toolResult(out, Json.convert(s.result(), CallToolResult.class, "the task's result"));
        }
    }

    private static String millis(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** Lists every page of a list method raw ({@code --json}). */
    @FunctionalInterface
    interface RawLister {
        /**
         * Lists every page.
         *
         * @param method   the list method
         * @param itemsKey the key of the items
         * @return the first page with every page's items
         * @throws InterruptedException if interrupted
         */
        Map<String, Object> listAll(String method, String itemsKey) throws InterruptedException;
    }

    /**
     * Notes a task's status on stderr when it changes: {@code mcp: task ID: STATUS (MESSAGE)}. Written from the
     * command's thread and the task driver's; each note is one line, and a repeat of the last is dropped.
     */
    static final class StatusNotes {
        private final PrintWriter err;
        private final ReentrantLock lock = new ReentrantLock();
        private String last;

        StatusNotes(PrintWriter err) {
            this.err = err;
        }

        void note(TaskSnapshot s, boolean created) {
            String line = "task " + s.taskId() + ": " + s.status().wireName()
                    + (s.statusMessage() == null ? "" : " (" + Render.oneLine(s.statusMessage()) + ")");
            lock.lock();
            try {
                if (line.equals(last)) {
                    return;
                }
                last = line;
                err.println("mcp: " + line + (created && !s.status().isTerminal()
                        ? "; Ctrl+C cancels it" : ""));
                err.flush();
            } catch (RuntimeException | Error ignored) {
                // only a note: the task goes on
            } finally {
                lock.unlock();
            }
        }
    }
}
