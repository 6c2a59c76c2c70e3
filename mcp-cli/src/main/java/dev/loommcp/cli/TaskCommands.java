package dev.loommcp.cli;

import dev.loommcp.Registration;
import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpInputRequiredException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.tasks.TaskSnapshot;
import dev.loommcp.tasks.TaskStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

    /** How long a {@code tasks/cancel} sent because the command stops may take. */
    static final Duration CANCEL_BOUND = Duration.ofSeconds(5);

    private final Output io;
    private final boolean json;
    private final boolean canElicit;
    private final boolean canListRoots;
    private final String timeoutText;

    /**
     * Creates the task commands of one command line.
     *
     * @param io           where to write
     * @param json         whether {@code --json} was given
     * @param canElicit    whether {@code --elicit} was given (elicitation input can be answered)
     * @param canListRoots whether {@code --root} was given (roots/list input can be answered)
     * @param timeoutText  {@code --timeout} as typed, or {@code null}, for messages
     */
    TaskCommands(Output io, boolean json, boolean canElicit, boolean canListRoots, String timeoutText) {
        this.io = io;
        this.json = json;
        this.canElicit = canElicit;
        this.canListRoots = canListRoots;
        this.timeoutText = timeoutText;
    }

    /**
     * Calls a tool as a task and waits for its result: notes the task's id and each status change on stderr, then
     * prints the result like {@code call}. This command owns the task: an interrupt (Ctrl+C, SIGTERM) or
     * {@code --timeout} cancels it ({@code tasks/cancel}, bounded) before the command ends (exit 130/143, or 5).
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param name   the tool's name
     * @param args   its arguments
     * @param wait   how long to wait for the task to end ({@code --timeout}; then the task is cancelled), or
     *               {@code null} to wait until it ends (or its TTL passes)
     * @return the exit code (see {@link #watch})
     * @throws InterruptedException if interrupted (the task is cancelled first, best effort)
     */
    int callAsTask(McpClient client, McpTasks tasks, String name, Map<String, Object> args, Duration wait)
            throws InterruptedException {
        McpTask task = tasks.callToolAsTask(name, args, RequestOptions.DEFAULT);
        if (task.answeredAtOnce()) {
            // the handle stands for a plain result: it has no id the server knows
            io.err().println("mcp: the server answered at once: no task was created");
            io.err().flush();
            return printResult(name, task.await(RequestOptions.DEFAULT));
        }
        return watch(client, task, wait, true, false, name);
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
        if (json && client.era().orElse(null) == Era.LEGACY) {
            io.printJson(raw.listAll("tasks/list", "tasks"));
            return ExitCodes.OK;
        }
        if (client.era().orElse(null) == Era.MODERN) {
            // nothing is sent: --protocol cannot help a modern-only server
            throw new IllegalArgumentException("the modern era's tasks extension has no tasks/list: a server lists "
                    + "no tasks in it; see one task with: mcp tasks get TASK-ID");
        }
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
     * Prints a task's status ({@code tasks/get}; with {@code --json} the result as received).
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
     * task's status is shown as the server reports it right after. A task that has already ended is left alone in
     * both output modes: nothing is sent but its {@code tasks/get}, stderr says so, and {@code --json} prints that
     * {@code tasks/get} result.
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param taskId the task's id
     * @return {@link ExitCodes#OK}
     * @throws InterruptedException if interrupted
     */
    int cancel(McpClient client, McpTasks tasks, String taskId) throws InterruptedException {
        McpTask task = tasks.task(taskId);
        Map<String, Object> rawBefore = null;
        TaskStatus before;
        String beforeMessage = null;
        if (json) {
            rawBefore = client.request("tasks/get", Map.of("taskId", taskId), RequestOptions.DEFAULT);
            before = statusOf(rawBefore);
        } else {
            TaskSnapshot s = task.get(RequestOptions.DEFAULT);
            before = s.status();
            beforeMessage = s.statusMessage();
        }
        if (before != null && before.isTerminal()) {
            // nothing to cancel (a 2025-11-25 server would answer -32602 to the request)
            String note = "task " + taskId + " has already ended: " + before.wireName() + "; nothing to cancel";
            if (json) {
                io.printJson(rawBefore);
                io.err().println("mcp: " + note);
                io.err().flush();
            } else {
                io.out().println(note + (beforeMessage == null ? "" : " (" + Render.oneLine(beforeMessage) + ")"));
            }
            return ExitCodes.OK;
        }
        if (json) {
            io.printJson(client.request("tasks/cancel", Map.of("taskId", taskId), RequestOptions.DEFAULT));
            return ExitCodes.OK;
        }
        task.cancel(RequestOptions.DEFAULT);
        TaskSnapshot after = task.get(RequestOptions.DEFAULT);
        io.out().println("asked the server to cancel task " + taskId + "; its status is now "
                + after.status().wireName() + (after.statusMessage() == null ? ""
                : " (" + Render.oneLine(after.statusMessage()) + ")"));
        return ExitCodes.OK;
    }

    /** The status in a raw {@code tasks/get} result of either era ({@code {task:{...}}} or flat), or null. */
    static TaskStatus statusOf(Map<String, Object> raw) {
        Object holder = raw != null && raw.get("task") instanceof Map<?, ?> nested && !raw.containsKey("status")
                ? nested : raw;
        if (holder instanceof Map<?, ?> m && m.get("status") instanceof String status) {
            try {
                return TaskStatus.parse(status);
            } catch (RuntimeException unknown) {
                return null;
            }
        }
        return null;
    }

    /**
     * Watches a task to its end and prints its result like {@code call}: legacy era {@code tasks/result}, modern era
     * the task polled to its end (input it asks for is answered by {@code --elicit} and {@code --root}). A watcher
     * only: Ctrl+C or {@code --timeout} stops watching and sends no {@code tasks/cancel} ({@code tasks cancel ID}
     * does that).
     *
     * @param client the connected client
     * @param tasks  the client's tasks
     * @param taskId the task's id
     * @param wait   how long to watch ({@code --timeout}), or {@code null} for no bound
     * @return the exit code (see {@link #watch})
     * @throws InterruptedException if interrupted (nothing is sent to the server)
     */
    int result(McpClient client, McpTasks tasks, String taskId, Duration wait) throws InterruptedException {
        return watch(client, tasks.task(taskId), wait, false, true, "task " + taskId);
    }

    /**
     * Drives a task to its end on a helper thread while the command's thread waits for it, so that only this method
     * decides what an interrupt or {@code --timeout} does: cancel the task when the command owns it, else stop
     * watching. The task's {@code await} answers the input the command can give ({@code --elicit}, {@code --root});
     * input it cannot give ends the command (exit 4, naming the input and {@code --elicit}) and leaves the task as it
     * is.
     *
     * @return 0; 1 for a result with {@code isError: true}; 4 for a task that ended failed or was cancelled by the
     *         server or another client, or that waits for input this command cannot give; 5 when {@code --timeout}
     *         or the task's TTL passed
     */
    @SuppressWarnings("try") // the listener's registration is held for the watch and closed after it
    private int watch(McpClient client, McpTask task, Duration wait, boolean own, boolean askFirst, String what)
            throws InterruptedException {
        StatusNotes notes = new StatusNotes(io.err(), own);
        if (!askFirst) {
            notes.note(task.snapshot());
        }
        java.util.concurrent.CompletableFuture<CallToolResult> done = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CountDownLatch stop = new java.util.concurrent.CountDownLatch(1);
        Thread driver;
        try (Registration ignored = task.addListener((t, s) -> notes.note(s))) {
            driver = Thread.ofPlatform().daemon().name("mcp-task-" + task.id()).start(() -> {
                try {
                    done.complete(drive(task, askFirst, notes));
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            });
            CallToolResult result;
            try {
                result = wait == null ? done.get() : done.get(wait.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                abandon(client, task, own, stop, driver, "the command was interrupted");
                throw e;
            } catch (TimeoutException e) {
                abandon(client, task, own, stop, driver, "--timeout passed");
                io.err().println("mcp: timed out (--timeout " + timeoutText + "): task " + task.id()
                        + " did not end in time; " + (own ? "tasks/cancel was sent"
                        : "it was not cancelled (stop it with: mcp tasks cancel " + task.id() + ")"));
                io.err().flush();
                return ExitCodes.TIMEOUT;
            } catch (ExecutionException e) {
                return ended(task, e.getCause());
            }
            notes.note(task.snapshot());
            return printResult(what, result);
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception closing) {
            throw new IllegalStateException(closing); // a listener registration does not throw when closed
        }
    }

    /**
     * What the driver thread runs: {@code await} with no deadline (legacy era: {@code tasks/result}, input arriving
     * as server requests; modern era: polls, input answered by {@code --elicit} and {@code --root}). Never
     * interrupted and never given a deadline, so it never cancels the task on the command's behalf; input the command
     * cannot give ends {@code await} with {@link McpInputRequiredException} and leaves the task as it is (the
     * module's contract), reported as {@link InputNeeded}. A watcher that asks first notes the task's status as the
     * server reports it before waiting (modern era).
     */
    private CallToolResult drive(McpTask task, boolean askFirst, StatusNotes notes) throws InterruptedException {
        if (askFirst && task.era() == Era.MODERN) {
            notes.note(task.get(RequestOptions.DEFAULT));
        }
        try {
            return task.await(RequestOptions.DEFAULT);
        } catch (McpInputRequiredException e) {
            List<String> inputs = unanswerable(task.snapshot().inputRequests());
            throw new InputNeeded(task.id(), inputs.isEmpty() ? List.of(String.valueOf(e.getMessage())) : inputs);
        }
    }

    /** The input requests this command cannot answer, described: kind and message. */
    private List<String> unanswerable(Map<String, Object> inputRequests) {
        List<String> out = new ArrayList<>();
        inputRequests.forEach((key, request) -> {
            String method = request instanceof Map<?, ?> m && m.get("method") instanceof String name ? name : "";
            boolean answerable = switch (method) {
                case "elicitation/create" -> canElicit;
                case "roots/list" -> canListRoots;
                default -> false;
            };
            if (!answerable) {
                out.add(key + ": " + describeInput(request));
            }
        });
        return out;
    }

    /**
     * Stops driving a task the command no longer waits for: the owner cancels it ({@code tasks/cancel}, bounded),
     * a watcher sends nothing; then the client is closed (which ends the driver's request) and the driver joined.
     */
    private void abandon(McpClient client, McpTask task, boolean own, java.util.concurrent.CountDownLatch stop,
                         Thread driver, String why) {
        boolean interrupted = Thread.interrupted();
        stop.countDown();
        try {
            if (own) {
                try {
                    task.cancel(RequestOptions.ofTimeout(CANCEL_BOUND));
                } catch (RuntimeException e) {
                    io.err().println("mcp: tasks/cancel of task " + task.id() + " failed (" + why + "): "
                            + TerminalText.cap(String.valueOf(e.getMessage())));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            client.close();
            try {
                driver.join(CANCEL_BOUND.toMillis());
            } catch (InterruptedException e) {
                interrupted = true;
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Reports how a task's wait ended other than with a result; returns the exit code. */
    private int ended(McpTask task, Throwable cause) {
        switch (cause) {
            case InputNeeded need -> {
                io.err().println("mcp: task " + need.taskId + " waits for input mcp cannot give:");
                for (String line : need.inputs) {
                    io.err().println("mcp:   " + TerminalText.cap(line));
                }
                io.err().println("mcp: the task is left as it is (input_required); answer it with --elicit ANSWER "
                        + "(decline, cancel or a JSON object), e.g.: mcp ... --elicit '{...}' tasks result "
                        + need.taskId);
                io.err().flush();
                return ExitCodes.RPC_ERROR;
            }
            case McpCancelledException c -> {
                // this command's own Ctrl+C or SIGTERM ends as an interrupt: a cancel here came from elsewhere
                io.err().println("mcp: task " + task.id() + " was cancelled (by the server or another client)"
                        + (task.snapshot().statusMessage() == null ? ""
                        : ": " + TerminalText.cap(Render.oneLine(task.snapshot().statusMessage()))));
                io.err().flush();
                return ExitCodes.RPC_ERROR;
            }
            case McpTimeoutException t -> {
                // the wait itself has no deadline: this is the task's TTL (or the legacy tasks/result bound)
                io.err().println("mcp: timed out: " + TerminalText.cap(t.getMessage()));
                io.err().flush();
                return ExitCodes.TIMEOUT;
            }
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            default -> throw new IllegalStateException(cause);
        }
    }

    /** The task waits for input this command cannot answer. */
    private static final class InputNeeded extends RuntimeException {
        private final String taskId;
        private final List<String> inputs;

        InputNeeded(String taskId, List<String> inputs) {
            super("task " + taskId + " waits for input mcp cannot give", null, false, false);
            this.taskId = taskId;
            this.inputs = inputs;
        }
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
        rows.forEach((k, v) -> out.println(String.format(Locale.ROOT, "%-12s%s", k, v)));
        if (!s.inputRequests().isEmpty()) {
            out.println("waiting for input:");
            s.inputRequests().forEach((key, request) -> out.println("  " + key + ": " + describeInput(request)));
        }
        if (s.error() != null) {
            out.println("error       " + s.error().code() + ": " + Render.oneLine(s.error().message()));
        }
        if (s.result() != null) {
            out.println("result:");
            Render.toolResult(out, Json.convert(s.result(), CallToolResult.class, "the task's result"));
        }
    }

    /**
     * Describes one input request of a task: its kind and, for an elicitation, its message.
     *
     * @param request the request as plain JSON ({@code {method, params}})
     * @return e.g. {@code elicitation "Delete notes.txt?"} or {@code a sampling request}
     */
    static String describeInput(Object request) {
        Map<?, ?> m = request instanceof Map<?, ?> map ? map : Map.of();
        String method = m.get("method") instanceof String name ? name : "";
        Map<?, ?> params = m.get("params") instanceof Map<?, ?> p ? p : Map.of();
        return switch (method) {
            case "elicitation/create" -> "elicitation" + ("url".equals(params.get("mode")) ? " (url)" : "")
                    + (params.get("message") instanceof String message ? " \"" + Render.oneLine(message) + "\""
                    : " (no message)");
            case "sampling/createMessage" -> "a sampling request (mcp offers no sampling)";
            case "roots/list" -> "a roots/list request (answered with --root DIR)";
            default -> "a request " + (method.isEmpty() ? "of no method" : "'" + Render.oneLine(method) + "'");
        };
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
     * command's thread and the task driver's; each note is one line, and a repeat of the last is dropped. The first
     * note of an open task says what Ctrl+C does, whichever thread writes it (a handle made from an id hears its
     * first status as a change, from {@code UNKNOWN}, before the command's own note of it).
     */
    static final class StatusNotes {
        private final PrintWriter err;
        private final boolean own;
        private final ReentrantLock lock = new ReentrantLock();
        private String last;
        private boolean hinted;

        StatusNotes(PrintWriter err, boolean own) {
            this.err = err;
            this.own = own;
        }

        void note(TaskSnapshot s) {
            String line = "task " + s.taskId() + ": " + s.status().wireName()
                    + (s.statusMessage() == null ? "" : " (" + Render.oneLine(s.statusMessage()) + ")");
            lock.lock();
            try {
                if (line.equals(last)) {
                    return;
                }
                last = line;
                boolean hint = !hinted && !s.status().isTerminal();
                hinted |= hint;
                err.println("mcp: " + line + (hint
                        ? (own ? "; Ctrl+C cancels it" : "; Ctrl+C stops watching (the task goes on)") : ""));
                err.flush();
            } catch (RuntimeException | Error ignored) {
                // only a note: the task goes on
            } finally {
                lock.unlock();
            }
        }
    }
}
