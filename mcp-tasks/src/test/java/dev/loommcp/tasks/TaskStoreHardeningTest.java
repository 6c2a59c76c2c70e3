package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.testing.OwnedProcesses;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileTaskStore} in a directory others can write (break test item 5: a planted symbolic link is never written
 * through), a file of a newer version (item 15: said so, not "corrupt"), and pruning on each write (item 15: records
 * past their TTL by the local clock, and stdio tasks whose owner is gone).
 */
class TaskStoreHardeningTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    @TempDir
    Path dir;

    private static TaskRecord record(String server, String id) {
        return new TaskRecord(id, server, Era.MODERN, "slow_compute", Instant.now(), Duration.ofMinutes(10),
                TaskStatus.WORKING);
    }

    @Test
    void aPlantedTemporaryFileLinkIsRemovedNotWrittenThrough() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "important data");
        Path store = dir.resolve("s.json");
        Files.createSymbolicLink(dir.resolve("s.json.tmp"), victim);
        new FileTaskStore(store).put(record("srv", "t1"));
        assertThat(Files.readString(victim)).isEqualTo("important data");
        assertThat(Files.isSymbolicLink(store)).isFalse();
        assertThat(new FileTaskStore(store).list("srv")).extracting(TaskRecord::taskId).containsExactly("t1");
    }

    @Test
    void aPlantedLockFileLinkIsRefusedAndItsTargetNeverCreatedOrOpened() throws Exception {
        Path store = dir.resolve("s.json");
        Path missing = dir.resolve("created-through-the-link");
        Files.createSymbolicLink(dir.resolve("s.json.lock"), missing);
        FileTaskStore s = new FileTaskStore(store);
        assertThatThrownBy(() -> s.put(record("srv", "t1"))).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("s.json.lock").hasMessageContaining("symbolic link");
        assertThat(missing).doesNotExist();
        assertThat(store).doesNotExist();

        Path victim = Files.writeString(dir.resolve("victim.txt"), "important data");
        Files.delete(dir.resolve("s.json.lock"));
        Files.createSymbolicLink(dir.resolve("s.json.lock"), victim);
        assertThatThrownBy(() -> s.put(record("srv", "t1"))).hasMessageContaining("symbolic link");
        assertThat(Files.readString(victim)).isEqualTo("important data");
    }

    @Test
    void aStorePathTheUserGaveAsALinkIsFollowedOnce() throws Exception {
        Path realDir = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("tasks.json"), realDir.resolve("tasks.json"));
        FileTaskStore s = new FileTaskStore(link);
        s.put(record("srv", "t1"));
        assertThat(Files.isSymbolicLink(link)).as("the user's link is kept").isTrue();
        assertThat(new FileTaskStore(realDir.resolve("tasks.json")).list("srv")).hasSize(1);
        assertThat(s.file()).isEqualTo(realDir.resolve("tasks.json").toRealPath());
    }

    @Test
    void aFileOfANewerVersionSaysSoAndIsLeftAsIs() throws Exception {
        Path store = dir.resolve("s.json");
        String newer = "{\"version\":2,\"tasks\":[],\"future\":{}}\n";
        Files.writeString(store, newer);
        assertThatThrownBy(() -> new FileTaskStore(store)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("written by a newer loom-mcp").hasMessageContaining("version 2")
                .hasMessageNotContaining("corrupt");
        assertThat(Files.readString(store)).isEqualTo(newer);
    }

    @Test
    void eachWritePrunesRecordsPastTheirTtlByTheLocalClockAndStdioTasksOfEndedOwners() throws Exception {
        Process ended = processes.start(new ProcessBuilder("true"));
        assertThat(ended.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Process live = processes.start(new ProcessBuilder("sleep", "60"));
        try {
            Instant longAgo = Instant.now().minus(Duration.ofHours(2));
            String deadOwner = TaskOwner.ofProcess("x", ended.pid(), "-");
            String liveOwner = TaskOwner.ofProcess("y", live.pid(), "-");
            for (String kind : new String[] {"file", "memory"}) {
                TaskStore s = kind.equals("file") ? new FileTaskStore(dir.resolve("p.json")) : new InMemoryTaskStore();
                // the server's createdAt is far in the past (its clock is off): the local learnedAt decides
                s.put(new TaskRecord("expired", "http://a", Era.MODERN, "t", longAgo, Duration.ofMinutes(10),
                        TaskStatus.WORKING, liveOwner, longAgo));
                s.put(new TaskRecord("fresh", "http://a", Era.MODERN, "t", longAgo, Duration.ofMinutes(10),
                        TaskStatus.WORKING, liveOwner, Instant.now()));
                s.put(new TaskRecord("old-format", "http://a", Era.MODERN, "t", longAgo, Duration.ofMinutes(10),
                        TaskStatus.WORKING));
                s.put(new TaskRecord("stdio-orphan", "stdio:abc", Era.MODERN, "t", Instant.now(), null,
                        TaskStatus.WORKING, deadOwner, Instant.now()));
                s.put(new TaskRecord("stdio-live", "stdio:abc", Era.MODERN, "t", Instant.now(), null,
                        TaskStatus.WORKING, liveOwner, Instant.now()));
                s.put(new TaskRecord("http-orphan", "http://a", Era.MODERN, "t", Instant.now(), null,
                        TaskStatus.WORKING, deadOwner, Instant.now()));
                assertThat(s.list("http://a")).as(kind).extracting(TaskRecord::taskId)
                        .containsExactly("fresh", "old-format", "http-orphan");
                assertThat(s.list("stdio:abc")).as(kind).extracting(TaskRecord::taskId).containsExactly("stdio-live");
            }
        } finally {
            live.destroyForcibly();
            assertThat(live.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aStoreThatCannotWriteIsToldToTheStoreFailureListenerAndTheTaskGoesOn() throws Exception {
        TaskStore full = new TaskStore() {
            @Override
            public void put(TaskRecord record) {
                throw new UncheckedIOException("no space left on device", new java.io.IOException("ENOSPC"));
            }

            @Override
            public void remove(String serverKey, String taskId) {
            }

            @Override
            public java.util.List<TaskRecord> list(String serverKey) {
                return java.util.List.of();
            }
        };
        java.util.List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        McpTasks tasks = McpTasks.newBuilder().store(full).minPollInterval(Duration.ofMillis(10))
                .storeFailureListener((task, e) -> told.add(task.id() + ": " + e.getMessage())).build();
        FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
        tasks.support().bind(server);
        try {
            McpTask t = tasks.callToolAsTask("slow_compute", java.util.Map.of("script", java.util.List.of(
                    FakeTaskChannel.task("working"), FakeTaskChannel.completed("done"))),
                    dev.loommcp.RequestOptions.DEFAULT);
            assertThat(told).containsExactly(t.id() + ": no space left on device");
            assertThat(t.await(dev.loommcp.RequestOptions.ofTimeout(Duration.ofSeconds(10))).text()).isEqualTo("done");
        } finally {
            server.close();
            tasks.support().clientClosed();
        }
    }

    @Test
    void everyStoreRefusesAnUnknownStatusAndAResultThatIsNotPlainJson() throws Exception {
        for (String kind : new String[] {"file", "memory"}) {
            TaskStore s = kind.equals("file") ? new FileTaskStore(dir.resolve("refused.json")) : new InMemoryTaskStore();
            assertThatThrownBy(() -> s.put(new TaskRecord("u", "http://a", Era.MODERN, "t", Instant.now(), null,
                    TaskStatus.UNKNOWN))).as(kind).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("task u ").hasMessageContaining("never stored");
            for (Object bad : new Object[] {Thread.currentThread(), Double.NaN, Float.NEGATIVE_INFINITY}) {
                TaskRecord r = new TaskRecord("r", "http://a", Era.MODERN, "t", Instant.now(), null,
                        TaskStatus.WORKING, null, null, null, java.util.Map.of(),
                        java.util.Map.of("content", java.util.List.of(java.util.Map.of("x", bad))), null);
                assertThatThrownBy(() -> s.put(r)).as(kind + " " + bad.getClass())
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not plain JSON");
            }
            s.put(new TaskRecord("ok", "http://a", Era.MODERN, "t", Instant.now(), null, TaskStatus.WORKING));
            assertThatThrownBy(() -> s.claim("http://a", r -> new TaskRecord(r.taskId(), "http://a", Era.MODERN, "t",
                    r.createdAt(), null, TaskStatus.UNKNOWN), dev.loommcp.Deadline.NONE)).as(kind)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(s.list("http://a")).as(kind).extracting(TaskRecord::lastStatus)
                    .containsExactly(TaskStatus.WORKING);
        }
    }
}
