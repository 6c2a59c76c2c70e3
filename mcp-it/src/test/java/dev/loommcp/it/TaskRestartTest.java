package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.tasks.FileTaskStore;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTasks;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpTasksFixture;
import dev.loommcp.testing.OwnedProcesses;
import dev.loommcp.transport.http.HttpTransport;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resume after a restart (issue 11 item 4): a child JVM starts a task on the HTTP tasks fixture with a
 * {@link FileTaskStore} and is killed with SIGKILL mid-task; a new client (this JVM) with the same store file finds
 * the task through {@code resumeTasks()} and drives it to its result. The server outlives both clients.
 */
@ExtendWith(LeakCheck.class)
class TaskRestartTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static McpClient client(McpTransport transport, McpTasks tasks) {
        return McpClient.newBuilder(transport).protocolMode(ProtocolMode.MODERN).requestTimeout(Duration.ofSeconds(30))
                .taskSupport(tasks.support()).build();
    }

    /** Starts {@link TaskRestartChild}; returns it once it printed its task's id (in {@code taskId[0]}). */
    private Process startChild(Path dir, HttpTasksFixture server, Path storeFile, String seconds,
                               String[] taskId) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), TaskRestartChild.class.getName(),
                server.endpoint().toString(), storeFile.toString(), seconds);
        Process child = processes.start(new ProcessBuilder(command).redirectInput(new File("/dev/null"))
                .redirectError(dir.resolve("child.err").toFile()));
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            CompletableFuture<String> started = CompletableFuture.supplyAsync(() -> {
                try {
                    return r.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            String line = started.get(120, TimeUnit.SECONDS);
            assertThat(line).as("child stderr: %s", Files.readString(dir.resolve("child.err")))
                    .startsWith("started ");
            taskId[0] = line.substring("started ".length()).strip();
            return child;
        } catch (Exception | AssertionError e) {
            child.destroyForcibly();
            child.waitFor(60, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Break test item 1: a second process sharing the store leaves the tasks a live process still awaits (it used to
     * take them over and its short deadline cancelled them), and takes them over once that process is gone.
     */
    @Test
    void aLiveProcessKeepsItsTasksAndAKilledOnesAreTakenOver(@TempDir Path dir) throws Exception {
        Path storeFile = dir.resolve("tasks.json");
        try (HttpTasksFixture server = new HttpTasksFixture()) {
            String[] taskId = new String[1];
            Process child = startChild(dir, server, storeFile, "5", taskId);
            McpTransport transport = HttpTransport.newBuilder(server.endpoint()).build();
            McpTasks tasks = McpTasks.newBuilder().store(new FileTaskStore(storeFile)).build();
            try (McpClient client = client(transport, tasks)) {
                client.connect();
                try {
                    assertThat(tasks.resumeTasks()).as("the child still awaits its task").isEmpty();
                    assertThat(child.isAlive()).isTrue();
                } finally {
                    child.destroyForcibly(); // SIGKILL
                    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
                }
                List<McpTask> resumed = tasks.resumeTasks();
                assertThat(resumed).extracting(McpTask::id).containsExactly(taskId[0]);
                CallToolResult r = resumed.getFirst().await(Deadline.after(Duration.ofSeconds(120)));
                assertThat(TasksExtensionContract.text(r)).as("the task was not cancelled by the first resume")
                        .contains("computed after 5000 ms");
            }
        }
    }

    @Test
    void aTaskStartedBeforeTheClientJvmWasKilledCompletesThroughResumeTasks(@TempDir Path dir) throws Exception {
        Path storeFile = dir.resolve("tasks.json");
        try (HttpTasksFixture server = new HttpTasksFixture()) {
            String[] started = new String[1];
            Process child = startChild(dir, server, storeFile, "6", started);
            String taskId = started[0];
            try {
                assertThat(Files.exists(storeFile)).as("the store was written before the task id was printed")
                        .isTrue();
            } finally {
                child.destroyForcibly(); // SIGKILL
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);

            FileTaskStore store = new FileTaskStore(storeFile);
            McpTasks tasks = McpTasks.newBuilder().store(store).build();
            McpTransport transport = HttpTransport.newBuilder(server.endpoint()).build();
            String serverKey = transport.serverKey().orElseThrow();
            assertThat(store.list(serverKey)).extracting(TaskRecord::taskId).containsExactly(taskId);
            try (McpClient client = client(transport, tasks)) {
                client.connect();
                List<McpTask> resumed = tasks.resumeTasks();
                assertThat(resumed).extracting(McpTask::id).containsExactly(taskId);
                McpTask task = resumed.getFirst();
                assertThat(task.toolName().orElseThrow()).isEqualTo("slow_compute");
                assertThat(task.status()).isIn(TaskStatus.WORKING, TaskStatus.COMPLETED);
                CallToolResult r = task.await(Deadline.after(Duration.ofSeconds(120)));
                assertThat(TasksExtensionContract.text(r)).contains("computed after 6000 ms");
                // an ended task leaves the store
                assertThat(store.list(serverKey)).extracting(TaskRecord::taskId).doesNotContain(taskId);
            }
            assertThat(new FileTaskStore(storeFile).list(serverKey)).extracting(TaskRecord::taskId)
                    .doesNotContain(taskId);
        }
    }
}
