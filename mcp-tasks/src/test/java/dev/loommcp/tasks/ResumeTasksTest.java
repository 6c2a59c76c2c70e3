package dev.loommcp.tasks;

import static dev.loommcp.tasks.FakeTaskChannel.completed;
import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.testing.LeakCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@link McpTasks#resumeTasks()}: a second client (a restarted JVM, simulated) re-attaches through the store. */
@ExtendWith(LeakCheck.class)
class ResumeTasksTest {

    private static final RequestOptions TEN_S = RequestOptions.timeout(Duration.ofSeconds(10));

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
        FakeTaskChannel sameServer = new FakeTaskChannel(Era.MODERN);
        sameServer.pollIntervalMs = 20;
        sameServer.script(running.id(), task("working"), completed("finished after the restart"));
        sameServer.script(ended.id(), task("completed", "result", FakeTaskChannel.textResult("ended", false)));
        // "gone" is unknown to the server now (expired)

        McpTasks second = client(sameServer, new FileTaskStore(file));
        List<McpTask> resumed = second.resumeTasks();

        assertThat(resumed).extracting(McpTask::id).containsExactly(running.id(), ended.id());
        assertThat(resumed.get(0).toolName()).isEqualTo("slow_compute");
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
        assertThat(t.toolName()).isEqualTo("confirm_delete");
        assertThat(t.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(tasks.task(id)).as("one handle per open task").isSameAs(t);
        McpTask unknown = tasks.task("printed-by-another-process");
        assertThat(unknown.status()).isEqualTo(TaskStatus.WORKING);
        assertThat(unknown.toolName()).isNull();
    }
}
