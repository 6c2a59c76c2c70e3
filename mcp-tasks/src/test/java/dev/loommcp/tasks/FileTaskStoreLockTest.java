package dev.loommcp.tasks;

import static dev.loommcp.tasks.FakeTaskChannel.completed;
import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileTaskStore} against a second real process (a child JVM) that holds its lock file: every wait is bounded
 * by the call's deadline or the store's lock timeout and ends in {@link TaskStoreBusyException}; and the files the
 * store creates are owner-only.
 */
@ExtendWith(LeakCheck.class)
class FileTaskStoreLockTest {

    /** A child JVM's program: locks the file named by its argument, says so, and holds it until stdin ends. */
    private static final String HOLDER = """
            import java.nio.channels.FileChannel;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            public class HoldLock {
                public static void main(String[] args) throws Exception {
                    try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE)) {
                        ch.lock();
                        System.out.println("locked");
                        System.out.flush();
                        while (System.in.read() >= 0) {
                        }
                    }
                }
            }
            """;

    @TempDir
    Path dir;

    private Process holder;
    private FakeTaskChannel server;
    private McpTasks tasks;

    @AfterEach
    void close() throws Exception {
        release();
        if (server != null) {
            server.close();
            tasks.support().clientClosed();
        }
    }

    /** Starts the child JVM and waits until it holds the lock file of {@code store}. */
    private void holdLockOf(Path store) throws Exception {
        Path source = Files.writeString(dir.resolve("HoldLock.java"), HOLDER);
        String java = ProcessHandle.current().info().command().orElse("java");
        holder = new ProcessBuilder(java, source.toString(), store.resolveSibling(store.getFileName() + ".lock")
                .toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8));
        assertThat(out.readLine()).as("the child process holds the lock").isEqualTo("locked");
    }

    /** Ends the child (its stdin closes: it releases the lock and exits). */
    private void release() throws Exception {
        if (holder == null) {
            return;
        }
        holder.getOutputStream().close();
        if (!holder.waitFor(20, TimeUnit.SECONDS)) {
            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        holder = null;
    }

    private static TaskRecord record(String id) {
        return new TaskRecord(id, "srv", Era.MODERN, "slow", Instant.parse("2026-12-01T03:00:00Z"), null,
                TaskStatus.WORKING);
    }

    @Test
    void aCallToolAsTaskWaitsForAStoreAnotherProcessHoldsNoLongerThanItsDeadline() throws Exception {
        // before the fix the creating call waited in FileChannel.lock() for as long as the other process held the
        // lock (here: until the test lets it go), whatever the call's timeout
        Path file = dir.resolve("tasks.json");
        server = new FakeTaskChannel(Era.MODERN);
        server.pollIntervalMs = 20;
        tasks = McpTasks.newBuilder().store(new FileTaskStore(file)).minPollInterval(Duration.ofMillis(10)).build();
        tasks.support().bind(server);
        holdLockOf(file);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                outcome.set(tasks.callToolAsTask("slow", Map.of("script", List.of(task("working"),
                        completed("done"))), RequestOptions.ofTimeout(Duration.ofSeconds(1))));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        boolean returned = caller.join(Duration.ofSeconds(10));
        release();
        assertThat(returned).as("callToolAsTask returned while the other process held the lock").isTrue();
        assertThat(outcome.get()).as("the task goes on without its record").isInstanceOf(McpTask.class);
        assertThat(((McpTask) outcome.get()).await(RequestOptions.ofTimeout(Duration.ofSeconds(10))).text())
                .isEqualTo("done");
    }

    @Test
    void aBusyStoreFailsTypedNamingTheFileAtTheDeadlineOrItsLockTimeout() throws Exception {
        Path file = dir.resolve("tasks.json");
        FileTaskStore store = new FileTaskStore(file, Duration.ofMillis(300));
        store.put(record("before"));
        holdLockOf(file);
        assertThatThrownBy(() -> store.put(record("1"), Deadline.after(Duration.ofMillis(200))))
                .isInstanceOf(TaskStoreBusyException.class).hasMessageContaining(file.toString())
                .hasMessageContaining("another process holds its lock file")
                .hasMessageContaining("gave up at the deadline of the call");
        assertThatThrownBy(() -> store.remove("srv", "before"))
                .isInstanceOf(TaskStoreBusyException.class)
                .hasMessageContaining("for more than 300 ms (the store's lock timeout)");
        assertThatThrownBy(() -> store.put(record("2"), Deadline.NONE)).isInstanceOf(TaskStoreBusyException.class);
        assertThat(store.list("srv")).as("reading needs no lock; nothing changed").extracting(TaskRecord::taskId)
                .containsExactly("before");
        // a thread of this process waits for the lock file (holding the store's lock in this JVM): a second one
        // gives up at its own deadline, told that this process holds the store
        FileTaskStore patient = new FileTaskStore(file, Duration.ofSeconds(30));
        Thread waiting = Thread.ofVirtual().start(() -> patient.put(record("patient")));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> waiting.getState() == Thread.State.TIMED_WAITING);
        assertThatThrownBy(() -> store.put(record("4"), Deadline.after(Duration.ofMillis(200))))
                .isInstanceOf(TaskStoreBusyException.class)
                .hasMessageContaining("another thread of this process holds it");
        release();
        assertThat(waiting.join(Duration.ofSeconds(10))).as("the patient writer got the lock").isTrue();
        store.put(record("3"));
        assertThat(store.list("srv")).extracting(TaskRecord::taskId).containsExactly("before", "patient", "3");
    }

    @Test
    void aWaitForTheStoreEndsWhenTheThreadIsInterruptedKeepingItsStatus() throws Exception {
        Path file = dir.resolve("tasks.json");
        FileTaskStore store = new FileTaskStore(file);
        holdLockOf(file);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                store.put(record("1"));
            } catch (Throwable e) {
                failure.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        Thread.sleep(100);
        writer.interrupt();
        assertThat(writer.join(Duration.ofSeconds(10))).isTrue();
        assertThat(failure.get()).isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("interrupted");
        assertThat(stillInterrupted.get()).isTrue();
    }

    @Test
    void theStoreFileItsTemporaryFileAndItsLockFileAreOwnerOnly() throws Exception {
        assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class), "POSIX only");
        Path file = dir.resolve("tasks.json");
        // an older version left the store file and a crashed write's temporary file readable to others
        Files.writeString(file, "");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Path temp = Files.writeString(dir.resolve("tasks.json.tmp"), "half");
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-rw-rw-"));

        new FileTaskStore(file).put(record("1"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("tasks.json.lock"))))
                .isEqualTo("rw-------");
        Path fresh = dir.resolve("fresh.json");
        new FileTaskStore(fresh).put(record("2"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("fresh.json.lock"))))
                .isEqualTo("rw-------");
    }
}
