package dev.loommcp.tasks;

import static dev.loommcp.tasks.FakeTaskChannel.completed;
import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link McpTasks#resumeTasks()}: a second client (a restarted JVM, simulated) re-attaches through the store; it leaves
 * the tasks of a live owner (another {@code McpTasks} of this JVM with an open client, another live process) and takes
 * over those whose owner is gone, or that have no owner (an older version's file), rewriting the owner (break test
 * item 1).
 */
@ExtendWith(LeakCheck.class)
class ResumeTasksTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final RequestOptions TEN_S = RequestOptions.ofTimeout(Duration.ofSeconds(10));

    @TempDir
    Path dir;

    private final List<Runnable> closers = new ArrayList<>();

    @AfterEach
    void close() {
        closers.forEach(Runnable::run);
    }

    private McpTasks client(FakeTaskChannel server, TaskStore store) {
        McpTasks tasks = McpTasks.newBuilder().store(store).minPollInterval(Duration.ofMillis(10)).build();
        tasks.support().bind(server);
        closers.add(() -> {
            server.close();
            tasks.support().clientClosed();
        });
        return tasks;
    }

    @Test
    void aRestartedClientResumesOpenTasksFromTheFileStore() throws Exception {
        Path file = dir.resolve("tasks.json");
        FakeTaskChannel serverSeenByFirst = new FakeTaskChannel(Era.MODERN);
        serverSeenByFirst.pollIntervalMs = 20;
        McpTasks first = client(serverSeenByFirst, new FileTaskStore(file));
        McpTask running = first.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        McpTask gone = first.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        McpTask ended = first.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        McpTask otherServer = first.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        new FileTaskStore(file).put(new TaskRecord(otherServer.id(), "another-server", Era.MODERN, "x",
                otherServer.snapshot().createdAt(), null, TaskStatus.WORKING));
        // the first JVM dies here (nothing more is written); the server goes on
        serverSeenByFirst.close();
        first.support().clientClosed(); // (in one JVM: its owner is gone, so its tasks may be taken over)
        FakeTaskChannel sameServer = new FakeTaskChannel(Era.MODERN);
        sameServer.pollIntervalMs = 20;
        sameServer.script(running.id(), task("working"), completed("finished after the restart"));
        sameServer.script(ended.id(), task("completed", "result", FakeTaskChannel.textResult("ended", false)));
        // "gone" is unknown to the server now (expired)

        McpTasks second = client(sameServer, new FileTaskStore(file));
        List<McpTask> resumed = second.resumeTasks();

        assertThat(resumed).extracting(McpTask::id).containsExactly(running.id(), ended.id());
        assertThat(resumed.get(0).toolName().orElseThrow()).isEqualTo("slow_compute");
        assertThat(resumed.get(1).status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(resumed.get(0).await(TEN_S).text()).isEqualTo("finished after the restart");
        assertThat(resumed.get(1).await(TEN_S).text()).isEqualTo("ended");
        assertThat(new FileTaskStore(file).list(sameServer.serverKey)).as("ended and unknown tasks are forgotten")
                .isEmpty();
        assertThat(new FileTaskStore(file).list("another-server")).hasSize(1);
        assertThat(resumed).extracting(McpTask::id).doesNotContain(gone.id(), otherServer.id());
    }

    @Test
    void aTaskFromAnotherEraIsNotResumed() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        store.put(new TaskRecord("legacy-1", "fake://tasks-server", Era.LEGACY, "t", java.time.Instant.now(), null,
                TaskStatus.WORKING));
        McpTasks tasks = client(new FakeTaskChannel(Era.MODERN), store);
        assertThat(tasks.resumeTasks()).isEmpty();
        assertThat(store.list("fake://tasks-server")).hasSize(1);
    }

    @Test
    void taskByIdUsesWhatTheStoreKnows() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
        String id = server.newTask(task("input_required", "inputRequests", Map.of()));
        store.put(new TaskRecord(id, server.serverKey, Era.MODERN, "confirm_delete", java.time.Instant.now(),
                Duration.ofMinutes(1), TaskStatus.INPUT_REQUIRED));
        McpTasks tasks = client(server, store);
        McpTask t = tasks.task(id);
        assertThat(t.toolName().orElseThrow()).isEqualTo("confirm_delete");
        assertThat(t.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(tasks.task(id)).as("one handle per open task").isSameAs(t);
        McpTask unknown = tasks.task("printed-by-another-process");
        assertThat(unknown.status()).as("nothing is known of it yet").isEqualTo(TaskStatus.UNKNOWN);
        assertThat(unknown.toolName()).isEmpty();
    }

    // -------------------------------------------------- who owns a record (break test item 1)

    private static FakeTaskChannel server() {
        FakeTaskChannel s = new FakeTaskChannel(Era.MODERN);
        s.pollIntervalMs = 20;
        return s;
    }

    @Test
    void aSecondMcpTasksOfThisJvmLeavesTheFirstOnesLiveTasksAndTakesThemOnceItsClientClosed() throws Exception {
        Path file = dir.resolve("tasks.json");
        FakeTaskChannel firstServer = server();
        McpTasks first = client(firstServer, new FileTaskStore(file));
        McpTask mine = first.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        String owner = new FileTaskStore(file).list(firstServer.serverKey).getFirst().owner();
        assertThat(owner).isNotNull();

        FakeTaskChannel secondServer = server();
        secondServer.script(mine.id(), task("working"), completed("taken over"));
        McpTasks second = client(secondServer, new FileTaskStore(file));
        assertThat(second.resumeTasks()).as("the first McpTasks still drives it").isEmpty();
        assertThat(secondServer.sent("tasks/get")).as("nothing is sent for a task owned elsewhere").isEmpty();
        assertThat(new FileTaskStore(file).list(secondServer.serverKey)).extracting(TaskRecord::owner)
                .containsExactly(owner);

        firstServer.close();
        first.support().clientClosed(); // the first client is gone: its tasks may be taken over
        List<McpTask> taken = second.resumeTasks();
        assertThat(taken).extracting(McpTask::id).containsExactly(mine.id());
        assertThat(new FileTaskStore(file).list(secondServer.serverKey)).extracting(TaskRecord::owner)
                .doesNotContain(owner).doesNotContainNull();
        assertThat(taken.getFirst().await(TEN_S).text()).isEqualTo("taken over");
    }

    @Test
    void aTaskOfAnotherLiveProcessIsLeftAndOneOfAnEndedProcessIsTakenOver() throws Exception {
        Process live = processes.start(new ProcessBuilder("sleep", "60"));
        Process ended = processes.start(new ProcessBuilder("true"));
        try {
            assertThat(ended.waitFor(30, TimeUnit.SECONDS)).isTrue();
            FakeTaskChannel server = server();
            String liveTask = server.newTask(task("working"));
            String orphan = server.newTask(task("working"));
            String old = server.newTask(task("working"));
            FileTaskStore store = new FileTaskStore(dir.resolve("tasks.json"));
            store.put(record(liveTask, server.serverKey, TaskOwner.ofProcess("other", live.pid(),
                    live.info().startInstant().map(Instant::toEpochMilli).map(String::valueOf).orElse("-"))));
            store.put(record(orphan, server.serverKey, TaskOwner.ofProcess("other", ended.pid(), "-")));
            store.put(new TaskRecord(old, server.serverKey, Era.MODERN, "slow_compute", Instant.now(), null,
                    TaskStatus.WORKING)); // no owner: written by an older version
            McpTasks tasks = client(server, store);
            assertThat(tasks.resumeTasks()).extracting(McpTask::id).containsExactly(orphan, old);
            assertThat(store.list(server.serverKey)).filteredOn(r -> r.taskId().equals(liveTask))
                    .extracting(TaskRecord::owner).first().asString().startsWith("other@" + live.pid());
        } finally {
            live.destroyForcibly();
            assertThat(live.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aFileWithoutOwnersIsReadAndResumedAsBefore() throws Exception {
        Path file = dir.resolve("tasks.json");
        FakeTaskChannel server = server();
        String id = server.newTask(task("working"), completed("done"));
        Files.writeString(file, "{\"version\":1,\"tasks\":[{\"taskId\":\"" + id + "\",\"serverKey\":\""
                + server.serverKey + "\",\"era\":\"MODERN\",\"toolName\":\"t\",\"createdAt\":\"2026-12-01T03:00:00Z\","
                + "\"ttlMs\":null,\"lastStatus\":\"working\"}]}\n");
        McpTasks tasks = client(server, new FileTaskStore(file));
        assertThat(tasks.resumeTasks()).extracting(McpTask::id).containsExactly(id);
        assertThat(Files.readString(file)).contains("\"owner\"");
    }

    private static TaskRecord record(String id, String serverKey, String owner) {
        return new TaskRecord(id, serverKey, Era.MODERN, "slow_compute", Instant.now(), null, TaskStatus.WORKING,
                owner, Instant.now());
    }
}
