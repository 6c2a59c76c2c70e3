package dev.loommcp.it.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Locates loom-mcp's test server for the tasks extension ({@code io.modelcontextprotocol/tasks}, MCP 2026-07-28):
 * {@code test-servers/tasks-fixture.mjs}, a dependency-free Node script that serves it over stdio or Streamable HTTP
 * and that the conformance suite's {@code tasks-*} server scenarios referee ({@code conformance/run.sh}, leg
 * {@code tasks-server}). The script's header lists its tools ({@code greet}, {@code slow_compute},
 * {@code quick_task}, {@code failing_job}, {@code protocol_error_job}, {@code confirm_delete}, {@code multi_input},
 * {@code test_tool_with_task}, {@code poll_stats}) and their task arguments ({@code pollMs}, {@code pollMsLater},
 * {@code ttlMs}). It speaks 2026-07-28 only ({@code initialize} gets {@code -32022}). Its tasks live as long as its
 * process: a task started by one client can be picked up by another (or by the same one after a restart) while the
 * process runs. {@link HttpTasksFixture} runs the HTTP variant for a test class.
 *
 * <p>Flags a caller may add to the command lines: {@code --poll-ms N} (the {@code pollIntervalMs} of new tasks,
 * default 200), {@code --ttl-ms N} (their {@code ttlMs}, default 600000), {@code --forget-after-ms N} (a task is
 * forgotten, {@code tasks/get} answering {@code -32602}, N ms after its TTL passed; default 10000),
 * {@code --keepalive-ms N} (HTTP: the keep-alive comments of a listen stream, default 15000), {@code --rate-limit}
 * (a {@code tasks/get} sooner than half the task's interval after its previous accepted one, or its creation, is
 * refused with {@code -32000 "rate limit: ..."}, HTTP 429). The tool {@code poll_stats} counts polls, early polls
 * and refused ones.
 */
public final class TasksFixture {

    /** The {@code serverInfo.name} the fixture reports. */
    public static final String SERVER_NAME = "loom-tasks-fixture";

    private TasksFixture() {
    }

    /**
     * Returns the fixture script.
     *
     * @return the path of {@code test-servers/tasks-fixture.mjs}
     * @throws IllegalStateException if the {@code test-servers} directory or the script cannot be found
     */
    public static Path script() {
        Path script = ReferenceServer.nodeDir().resolve("tasks-fixture.mjs");
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("the tasks fixture " + script + " is missing");
        }
        return script;
    }

    /**
     * Returns the command line that runs the fixture over stdio (one JSON-RPC message per line; it exits when its
     * stdin ends).
     *
     * @param flags extra flags (see the class comment), e.g. {@code "--poll-ms", "20"}
     * @return argv
     * @throws IllegalStateException if the script cannot be found
     */
    public static List<String> stdioCommand(String... flags) {
        return command("--stdio", flags);
    }

    /**
     * Returns the command line that runs the fixture over Streamable HTTP on an ephemeral port of 127.0.0.1; the
     * first line it prints on stdout is its endpoint ({@code http://127.0.0.1:PORT/mcp}).
     *
     * @param flags extra flags (see the class comment)
     * @return argv
     * @throws IllegalStateException if the script cannot be found
     */
    public static List<String> httpCommand(String... flags) {
        return command("--http", flags, "0");
    }

    private static List<String> command(String transport, String[] flags, String... transportArgs) {
        List<String> argv = new ArrayList<>(List.of("node", script().toString(), transport));
        argv.addAll(List.of(transportArgs));
        argv.addAll(List.of(flags));
        return List.copyOf(argv);
    }
}
