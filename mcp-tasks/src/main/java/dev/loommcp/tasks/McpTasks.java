package dev.loommcp.tasks;

import dev.loommcp.McpException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.spi.TaskSupport;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Tasks for one client: long-running server work that a {@code tools/call} answers with a task handle (the tasks
 * extension {@code io.modelcontextprotocol/tasks} of MCP 2026-07-28, MODERN-ERA.md C.5; the experimental tasks of
 * MCP 2025-11-25, C.6; Rust seed {@code with_tasks}, {@code call_tool_as_task}). Install it when building the client:
 *
 * <pre>{@code
 * McpTasks tasks = McpTasks.newBuilder().store(new FileTaskStore(Path.of("tasks.json"))).build();
 * McpClient client = McpClient.newBuilder(transport).taskSupport(tasks.support()).build();
 * client.connect();
 * CallToolResult r = client.callTool("slow_compute", Map.of("seconds", 5));    // a task, driven to its result
 * McpTask task = tasks.callToolAsTask("slow_compute", Map.of("seconds", 60), RequestOptions.DEFAULT);
 * task.addListener((t, s) -> System.out.println(s.status()));
 * CallToolResult r2 = task.await(RequestOptions.timeout(Duration.ofMinutes(5)));
 * }</pre>
 *
 * <p>Polls run on virtual threads only while a poll request is out: a thousand waiting tasks cost no thread between
 * polls. Polls keep the server's latest interval, never faster (bounded by {@link Builder#minPollInterval} and
 * {@link Builder#maxPollInterval}), and back off when the server signals a rate limit. Thread-safe.
 */
public final class McpTasks {

    private McpTasks(Builder builder) {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Returns a builder with the defaults.
     *
     * @return a new builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns tasks with the defaults (an {@link InMemoryTaskStore}).
     *
     * @return new tasks, not yet installed on a client
     */
    public static McpTasks create() {
        return newBuilder().build();
    }

    /**
     * Returns the driver to install with {@code McpClient.Builder.taskSupport}. The same object every time; it
     * binds to exactly one client.
     *
     * @return the driver
     */
    public TaskSupport support() {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Calls a tool as a task and returns its handle at once (the task may still run). Modern era: the server decides
     * whether a call becomes a task; a call it answers at once gives a handle that is already {@code completed}.
     * Legacy era: the call is augmented with {@code task: {ttl}} when the server's {@code tasks.requests.tools.call}
     * capability and the tool's {@code execution.taskSupport} ({@code optional} or {@code required}) allow it; else it
     * is a plain call and the handle is already complete. The task is recorded in the store.
     *
     * @param name      the tool's name
     * @param arguments its arguments, or {@code null}
     * @param options   deadline and token of the creating call (not of the task)
     * @return the handle
     * @throws InterruptedException  if the calling thread is interrupted
     * @throws IllegalStateException if {@link #support()} is not installed on a connected client
     * @throws McpException          if the call fails
     */
    public McpTask callToolAsTask(String name, Map<String, Object> arguments, RequestOptions options)
            throws InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Returns a handle to a task known by id (for example one printed by another process); nothing is sent. Its
     * snapshot is {@code working} until it is polled, unless the store knows better.
     *
     * @param taskId the id
     * @return the handle
     * @throws IllegalStateException if {@link #support()} is not installed on a connected client
     */
    public McpTask task(String taskId) {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Lists the server's tasks ({@code tasks/list}, legacy era only, every page).
     *
     * @param options deadline and token of the whole listing
     * @return the tasks as the server describes them
     * @throws InterruptedException         if the calling thread is interrupted
     * @throws McpUnsupportedInEraException in the modern era (the extension has no {@code tasks/list})
     * @throws McpException                 if a request fails
     */
    public List<TaskSnapshot> list(RequestOptions options) throws InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Re-attaches to the open tasks the store recorded for this client's server (for example after a restart of the
     * JVM): each is polled once ({@code tasks/get}); those the server no longer knows, or that ended, are removed
     * from the store (an ended task's handle is still returned, with its final snapshot).
     *
     * @return the handles, in creation order
     * @throws InterruptedException  if the calling thread is interrupted
     * @throws IllegalStateException if {@link #support()} is not installed on a connected client
     */
    public List<McpTask> resumeTasks() throws InterruptedException {
        throw new UnsupportedOperationException("not built yet");
    }

    /**
     * Returns the store.
     *
     * @return the store
     */
    public TaskStore store() {
        throw new UnsupportedOperationException("not built yet");
    }

    /** Builds {@link McpTasks}. Not thread-safe. */
    public static final class Builder {

        private Builder() {
        }

        /**
         * Sets where open tasks are remembered. Default: a new {@link InMemoryTaskStore}.
         *
         * @param store the store
         * @return this builder
         * @throws NullPointerException if {@code store} is {@code null}
         */
        public Builder store(TaskStore store) {
            throw new UnsupportedOperationException("not built yet");
        }

        /**
         * Sets the {@code ttl} asked for in the legacy era's {@code task} augmentation. Default: none (the server
         * chooses).
         *
         * @param ttl the ttl, positive, or {@code null} for none
         * @return this builder
         * @throws IllegalArgumentException if zero or negative
         */
        public Builder legacyTtl(Duration ttl) {
            throw new UnsupportedOperationException("not built yet");
        }

        /**
         * Sets the shortest interval between two polls of one task, whatever the server says. Default 100 ms.
         *
         * @param interval the floor, positive
         * @return this builder
         * @throws IllegalArgumentException if zero or negative, or above the maximum
         */
        public Builder minPollInterval(Duration interval) {
            throw new UnsupportedOperationException("not built yet");
        }

        /**
         * Sets the longest interval between two polls of one task (also the interval when the server names none
         * is the smaller of this and 1 second). Default 30 seconds.
         *
         * @param interval the ceiling, positive
         * @return this builder
         * @throws IllegalArgumentException if zero or negative, or below the minimum
         */
        public Builder maxPollInterval(Duration interval) {
            throw new UnsupportedOperationException("not built yet");
        }

        /**
         * Sets whether status is also heard by push ({@code subscriptions/listen} with {@code taskIds}, modern era)
         * when the server offers it; polling continues at the server's interval as the fallback. Default
         * {@code true}.
         *
         * @param push whether to listen
         * @return this builder
         */
        public Builder push(boolean push) {
            throw new UnsupportedOperationException("not built yet");
        }

        /**
         * Builds the tasks.
         *
         * @return the tasks, to install with {@code McpClient.Builder.taskSupport(tasks.support())}
         */
        public McpTasks build() {
            return new McpTasks(this);
        }
    }
}
