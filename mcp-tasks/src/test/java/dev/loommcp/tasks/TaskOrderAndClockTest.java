package dev.loommcp.tasks;

import dev.loommcp.Registration;
import static dev.loommcp.tasks.FakeTaskChannel.completed;
import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the store and the listeners hear when answers are applied at once (in the order the handle chose them; the
 * end is final), and the TTL backstop against a server whose clock is far from this machine's.
 */
@ExtendWith(LeakCheck.class)
class TaskOrderAndClockTest {

    private static final RequestOptions TEN_S = RequestOptions.ofTimeout(Duration.ofSeconds(10));

    private FakeTaskChannel server;
    private McpTasks tasks;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
            tasks.support().clientClosed();
        }
    }

    private void bind(FakeTaskChannel fake, TaskStore store) {
        server = fake;
        McpTasks.Builder b = McpTasks.newBuilder().minPollInterval(Duration.ofMillis(10));
        if (store != null) {
            b.store(store);
        }
        tasks = b.build();
        tasks.support().bind(server);
    }

    /** An in-memory store whose record of a {@code working} task with a message waits until released. */
    private static final class SlowStore implements TaskStore {
        final InMemoryTaskStore records = new InMemoryTaskStore();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> heard = new CopyOnWriteArrayList<>();

        @Override
        public void put(TaskRecord record) {
            heard.add("put " + record.lastStatus().wireName());
            if (record.lastStatus() == TaskStatus.INPUT_REQUIRED) {
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            records.put(record);
        }

        public void put(TaskRecord record, Deadline deadline) {
            put(record);
        }

        @Override
        public void remove(String serverKey, String taskId) {
            heard.add("remove");
            records.remove(serverKey, taskId);
        }

        public void remove(String serverKey, String taskId, Deadline deadline) {
            remove(serverKey, taskId);
        }

        @Override
        public List<TaskRecord> list(String serverKey) {
            return records.list(serverKey);
        }
    }

    @Test
    void twoAnswersAppliedAtOnceReachTheStoreAndTheListenersInTheOrderTheyWereChosen() throws Exception {
        // a caller's get() learns input_required and records it (the store is slow); meanwhile a second get()
        // learns completed. Before the fix the second told the store and the listener first: the listener heard
        // COMPLETED then INPUT_REQUIRED, and the store kept the finished task as input_required
        SlowStore store = new SlowStore();
        FakeTaskChannel fake = new FakeTaskChannel(Era.MODERN);
        fake.pollIntervalMs = 600_000; // no poll of its own: only the two get() below
        bind(fake, store);
        McpTask t = tasks.callToolAsTask("slow", Map.of("script", List.of(
                task("input_required", "statusMessage", "which file?"), completed("done"))), RequestOptions.DEFAULT);
        List<TaskStatus> heard = new CopyOnWriteArrayList<>();
        try (Registration l = t.addListener((task, s) -> heard.add(s.status()))) {
            AtomicReference<Throwable> firstFailed = new AtomicReference<>();
            Thread first = Thread.ofVirtual().start(() -> {
                try {
                    t.get(TEN_S);
                } catch (Throwable e) {
                    firstFailed.set(e);
                }
            });
            assertThat(store.entered.await(10, TimeUnit.SECONDS)).as("the first answer reached the store").isTrue();
            Thread second = Thread.ofVirtual().start(() -> {
                try {
                    t.get(TEN_S);
                } catch (Throwable e) {
                    firstFailed.compareAndSet(null, e);
                }
            });
            // the second answer is chosen after the first (its get() returns once the handle holds COMPLETED)
            await().atMost(Duration.ofSeconds(10)).until(() -> t.status() == TaskStatus.COMPLETED);
            store.release.countDown();
            assertThat(first.join(Duration.ofSeconds(10))).isTrue();
            assertThat(second.join(Duration.ofSeconds(10))).isTrue();
            assertThat(firstFailed.get()).isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() >= 2);
        }
        assertThat(heard).containsExactly(TaskStatus.INPUT_REQUIRED, TaskStatus.COMPLETED);
        assertThat(store.list(fake.serverKey)).as("the finished task is not kept").isEmpty();
        // in the order chosen: the record, its lease (the default claim writes it), the fenced update, the fenced
        // end (TaskStore.complete), then its removal (no result retention)
        assertThat(store.heard).containsExactly("put working", "put working", "put input_required", "put completed",
                "remove");
        assertThat(tasks.resumeTasks()).as("nothing to re-attach to").isEmpty();
    }

    @Test
    void aTaskTheTtlBackstopForgotIsNotRecordedAgainByALaterStatus() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        FakeTaskChannel fake = new FakeTaskChannel(Era.MODERN);
        fake.ttlMs = 100L;
        fake.pollIntervalMs = 20;
        bind(fake, store);
        McpTask t = tasks.callToolAsTask("slow", Map.of("script", List.of(task("working"))), RequestOptions.DEFAULT);
        assertThat(store.list(fake.serverKey)).hasSize(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.await(TEN_S))
                .hasMessageContaining("passed its TTL");
        assertThat(store.list(fake.serverKey)).isEmpty();
        fake.script(t.id(), task("working", "statusMessage", "still at it"));
        t.get(TEN_S);
        assertThat(t.snapshot().statusMessage()).isEqualTo("still at it");
        assertThat(store.list(fake.serverKey)).as("a forgotten task stays forgotten").isEmpty();
    }

    @Test
    void aServerWhoseClockIsTenMinutesBehindDoesNotTripTheTtlBackstop() throws Exception {
        // createdAt (server clock) + TTL lies in this machine's past: before the fix every await failed at once with
        // "passed its TTL" and the task was dropped from the store
        FakeTaskChannel fake = new FakeTaskChannel(Era.MODERN);
        fake.serverClockOffset = Duration.ofMinutes(-10);
        fake.ttlMs = 60_000L;
        fake.pollIntervalMs = 20;
        bind(fake, null);
        McpTask t = tasks.callToolAsTask("slow", Map.of("script", List.of(task("working"), task("working"),
                completed("finished"))), RequestOptions.DEFAULT);
        assertThat(t.await(TEN_S).text()).isEqualTo("finished");
    }

    @Test
    void aServerWhoseClockIsTenMinutesAheadDoesNotDelayTheTtlBackstop() throws Exception {
        // the backstop counts from when this client learned of the task: a server ahead cannot stretch it
        FakeTaskChannel fake = new FakeTaskChannel(Era.MODERN);
        fake.serverClockOffset = Duration.ofMinutes(10);
        fake.ttlMs = 300L;
        fake.pollIntervalMs = 20;
        bind(fake, null);
        McpTask t = tasks.callToolAsTask("slow", Map.of("script", List.of(task("working"))), RequestOptions.DEFAULT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.await(TEN_S))
                .isInstanceOf(dev.loommcp.McpTimeoutException.class).hasMessageContaining("passed its TTL of 300 ms")
                .hasMessageContaining("when this client learned of it");
        assertThat(tasks.store().list(fake.serverKey)).isEmpty();
    }

    @Test
    void aLegacyServerWhoseClockIsTenMinutesBehindStillGetsItsTasksResultWait() throws Exception {
        FakeTaskChannel fake = new FakeTaskChannel(Era.LEGACY);
        fake.serverClockOffset = Duration.ofMinutes(-10);
        fake.ttlMs = 60_000L;
        bind(fake, null);
        McpTask t = tasks.callToolAsTask("research", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        Thread releaser = Thread.ofVirtual().start(() -> {
            await().atMost(Duration.ofSeconds(10)).until(() -> !fake.sent("tasks/result", t.id()).isEmpty());
            try {
                Thread.sleep(100); // the result comes a little later than the server's createdAt + TTL allows
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            fake.legacyResult(t.id(), FakeTaskChannel.textResult("research done", false));
        });
        assertThat(t.await(TEN_S).text()).isEqualTo("research done");
        assertThat(releaser.join(Duration.ofSeconds(10))).isTrue();
    }
}
