package dev.loommcp.tasks;

import static dev.loommcp.tasks.FakeTaskChannel.completed;
import static dev.loommcp.tasks.FakeTaskChannel.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.RequestOptions;
import dev.loommcp.config.Era;
import dev.loommcp.testing.LeakCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resume on any replica (issue 32 item 3), against both shipped stores: the fenced {@link TaskStore#update} and
 * {@link TaskStore#complete}, and {@link McpTasks} holding and heartbeating a lease on every task it drives, claiming
 * the tasks of a replica that died, delivering each end once, releasing its leases on a clean close. Several
 * {@code McpTasks} on one store stand for the replicas (the file store is also shared between processes: mcp-it's
 * fleet tests run that with child JVMs).
 */
@ExtendWith(LeakCheck.class)
class TaskFleetTest {

    static final String SRV = "fake://tasks-server";

    @TempDir
    Path dir;

    private final List<Runnable> closers = new ArrayList<>();

    @AfterEach
    void close() {
        closers.forEach(Runnable::run);
    }

    private Supplier<TaskStore> stores(String kind) {
        return kind.equals("memory") ? singleton(new InMemoryTaskStore())
                : () -> new FileTaskStore(dir.resolve("tasks.json"));
    }

    private static Supplier<TaskStore> singleton(TaskStore s) {
        return () -> s;
    }

    private static TaskRecord record(String id) {
        return new TaskRecord(id, SRV, Era.MODERN, "slow_compute", Instant.now(), Duration.ofHours(1),
                TaskStatus.WORKING);
    }

    private static TaskRecord ended(TaskRecord r, String text) {
        return new TaskRecord(r.taskId(), r.serverKey(), r.era(), r.toolName(), r.createdAt(), r.ttl(),
                TaskStatus.COMPLETED, null, r.learnedAt(), null, Map.of(), FakeTaskChannel.textResult(text, false),
                Instant.now().plus(Duration.ofMinutes(10)));
    }

    private McpTasks replica(FakeTaskChannel server, TaskStore store, String owner, Duration lease,
                             Duration claimEvery, TaskResultListener listener) {
        McpTasks tasks = McpTasks.newBuilder().store(store).owner(owner).leaseLength(lease).claimInterval(claimEvery)
                .resultRetention(Duration.ofMinutes(10)).resultListener(listener)
                .minPollInterval(Duration.ofMillis(10)).build();
        tasks.support().bind(server);
        closers.add(() -> {
            server.close();
            tasks.support().clientClosed();
        });
        return tasks;
    }

    /** Replica "a" with the task it started. */
    private record OnA(FakeTaskChannel server, McpTasks tasks, McpTask task, List<String> heard) {
    }

    /** Replica "a": a 300 ms lease (heartbeats every 100 ms), no claiming of its own; it starts one task. */
    private OnA startOnA(TaskStore store) throws InterruptedException {
        FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
        server.pollIntervalMs = 20;
        List<String> heard = new CopyOnWriteArrayList<>();
        McpTasks a = replica(server, store, "a", Duration.ofMillis(300), Duration.ZERO, r -> heard.add(r.taskId()));
        McpTask t = a.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"))),
                RequestOptions.DEFAULT);
        return new OnA(server, a, t, heard);
    }

    private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    // ------------------------------------------------------------------------------------------------ the store

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aStaleOwnersFencedWritesAreRefusedAndAnEndIsRecordedOnce(String kind) throws Exception {
        TaskStore s = stores(kind).get();
        s.put(record("t1"));
        TaskLease a = s.claim(SRV, "t1", "a", Duration.ofMillis(1)).orElseThrow();
        assertThat(s.update(a, record("t1"))).as("a holds it").isTrue();
        Thread.sleep(5);
        TaskLease b = s.claim(SRV, "t1", "b", Duration.ofMinutes(1)).orElseThrow(); // a paused past its lease
        TaskRecord inputNeeded = new TaskRecord("t1", SRV, Era.MODERN, "slow_compute", Instant.now(), null,
                TaskStatus.INPUT_REQUIRED, "a", null, null, Map.of("k", Map.of("method", "elicitation/create")), null,
                null);
        assertThat(s.update(a, inputNeeded)).as("a's late write is fenced off").isFalse();
        assertThat(s.complete(a, ended(record("t1"), "from a"))).isFalse();
        assertThat(s.update(b, inputNeeded)).isTrue();
        TaskRecord stored = s.list(SRV).getFirst();
        assertThat(stored.owner()).as("the owner and lease stay the lease's").isEqualTo("b");
        assertThat(stored.lastStatus()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(stored.inputRequests()).containsKey("k");

        assertThat(s.complete(b, ended(record("t1"), "from b"))).isTrue();
        assertThat(s.complete(b, ended(record("t1"), "again"))).as("once").isFalse();
        TaskRecord done = s.list(SRV).getFirst();
        assertThat(done.owner()).isNull();
        assertThat(done.leaseUntil()).isNull();
        assertThat(done.retainUntil()).isNotNull();
        assertThat(done.result()).isEqualTo(FakeTaskChannel.textResult("from b", false));
        assertThat(s.claimDue(SRV, "c", Duration.ofMinutes(1), 10)).as("an ended task is not claimed").isEmpty();
        assertThat(s.claim(SRV, "t1", "c", Duration.ofMinutes(1))).isEmpty();
        assertThat(s.heartbeat(b, Duration.ofMinutes(1))).isEmpty();

        assertThatThrownBy(() -> s.complete(b, record("t1").withOwner(null, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("terminal");
        assertThatThrownBy(() -> s.update(b, record("t2"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another server or id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void racingReplicasWithShortLeasesDeliverEveryTaskExactlyOnce(String kind) throws Exception {
        Supplier<TaskStore> stores = stores(kind);
        int tasks = 30;
        for (int i = 0; i < tasks; i++) {
            stores.get().put(record("t" + i));
        }
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        AtomicInteger takeOvers = new AtomicInteger();
        int replicas = 5;
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(replicas)) {
            List<Future<?>> runs = new ArrayList<>();
            for (int w = 0; w < replicas; w++) {
                String owner = "replica-" + w;
                TaskStore s = stores.get();
                runs.add(pool.submit(() -> {
                    go.await();
                    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (delivered.size() < tasks && System.nanoTime() - end < 0) {
                        // short leases and work that often outlasts them: tasks are taken over while being driven
                        for (TaskLease l : s.claimDue(SRV, owner, Duration.ofMillis(15), 3)) {
                            Thread.sleep(ThreadLocalRandom.current().nextInt(30));
                            TaskRecord r = s.list(SRV).stream().filter(x -> x.taskId().equals(l.taskId()))
                                    .findFirst().orElse(null);
                            if (r == null) {
                                continue;
                            }
                            if (s.complete(l, ended(r, owner))) {
                                delivered.computeIfAbsent(l.taskId(), k -> new AtomicInteger()).incrementAndGet();
                            } else {
                                takeOvers.incrementAndGet();
                            }
                        }
                        Thread.sleep(1);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : runs) {
                f.get();
            }
        }
        assertThat(delivered).hasSize(tasks);
        assertThat(delivered.values()).allSatisfy(n -> assertThat(n.get()).as("delivered once").isEqualTo(1));
        assertThat(takeOvers.get()).as("the race happened: some owners lost their task to another").isPositive();
    }

    // ------------------------------------------------------------------------------------------------ McpTasks

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aReplicaTakesOverTheTasksOfOneThatDiedAndDeliversEachOnce(String kind) throws Exception {
        Supplier<TaskStore> stores = stores(kind);
        // a replica that died: its records carry its owner and a lease that has passed
        for (int i = 0; i < 3; i++) {
            stores.get().put(record("orphan-" + i).withOwner("dead-replica", Instant.now().minusSeconds(1)));
        }
        // and one whose lease still runs (its replica is alive): not taken
        stores.get().put(record("alive-1").withOwner("live-replica", Instant.now().plusSeconds(60)));
        List<String> heardByB = new CopyOnWriteArrayList<>();
        List<String> heardByC = new CopyOnWriteArrayList<>();
        FakeTaskChannel seenByB = new FakeTaskChannel(Era.MODERN);
        seenByB.pollIntervalMs = 20;
        FakeTaskChannel seenByC = new FakeTaskChannel(Era.MODERN);
        seenByC.pollIntervalMs = 20;
        for (int i = 0; i < 3; i++) {
            seenByB.script("orphan-" + i, task("working"), completed("result " + i));
            seenByC.script("orphan-" + i, task("working"), completed("result " + i));
        }
        McpTasks b = replica(seenByB, stores.get(), "b", Duration.ofSeconds(5), Duration.ZERO,
                r -> heardByB.add(r.taskId()));
        McpTasks c = replica(seenByC, stores.get(), "c", Duration.ofSeconds(5), Duration.ZERO,
                r -> heardByC.add(r.taskId()));

        List<McpTask> byB = b.claimDue();
        List<McpTask> byC = c.claimDue();
        assertThat(byB).extracting(McpTask::id).containsExactly("orphan-0", "orphan-1", "orphan-2");
        assertThat(byC).as("b holds them").isEmpty();
        eventually("b delivered the three", () -> heardByB.size() == 3);
        assertThat(heardByB).containsExactlyInAnyOrder("orphan-0", "orphan-1", "orphan-2");
        assertThat(c.claimDue()).as("ended tasks are not claimed again").isEmpty();
        Thread.sleep(100);
        assertThat(heardByB).hasSize(3);
        assertThat(heardByC).isEmpty();
        List<TaskRecord> records = stores.get().list(SRV);
        assertThat(records).filteredOn(r -> r.taskId().startsWith("orphan")).hasSize(3)
                .allSatisfy(r -> {
                    assertThat(r.lastStatus()).isEqualTo(TaskStatus.COMPLETED);
                    assertThat(r.result()).isNotNull();
                    assertThat(r.retainUntil()).isAfter(Instant.now());
                    assertThat(r.owner()).isNull();
                });
        assertThat(records).filteredOn(r -> r.taskId().equals("alive-1")).singleElement()
                .extracting(TaskRecord::owner).isEqualTo("live-replica");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aDrivenTaskIsLeasedAndHeartbeatedAndAReplicaClaimsItOnlyAfterACleanClose(String kind) throws Exception {
        Supplier<TaskStore> stores = stores(kind);
        OnA started = startOnA(stores.get());
        FakeTaskChannel seenByA = started.server();
        List<String> heardByA = started.heard();
        McpTasks a = started.tasks();
        McpTask t = started.task();
        TaskRecord first = stores.get().list(SRV).getFirst();
        assertThat(first.owner()).isEqualTo("a");
        assertThat(first.leaseUntil()).as("every driven task has a lease end").isNotNull();
        // a 300 ms lease, heartbeated every 100 ms: after a second it still runs and nobody else gets the task
        eventually("heartbeats extended the lease",
                () -> stores.get().list(SRV).getFirst().leaseUntil().isAfter(first.leaseUntil().plusMillis(500)));
        assertThat(stores.get().claimDue(SRV, "b", Duration.ofSeconds(5), 10)).isEmpty();

        seenByA.close();
        a.support().clientClosed(); // a clean close releases the lease
        assertThat(stores.get().list(SRV).getFirst().owner()).isNull();
        FakeTaskChannel seenByB = new FakeTaskChannel(Era.MODERN);
        seenByB.pollIntervalMs = 20;
        seenByB.script(t.id(), task("working"), completed("done on b"));
        List<TaskRecord> heardByB = new CopyOnWriteArrayList<>();
        McpTasks b = replica(seenByB, stores.get(), "b", Duration.ofSeconds(5), Duration.ofMillis(50),
                heardByB::add);
        // b's scheduler claims it (claimInterval 50 ms) without anyone asking
        eventually("b delivered it", () -> heardByB.size() == 1);
        assertThat(heardByB.getFirst().result()).isEqualTo(FakeTaskChannel.textResult("done on b", false));
        assertThat(heardByA).isEmpty();
        assertThat(b.owner()).isEqualTo("b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aReplicaThatLosesItsLeaseStopsWritingAndDoesNotDeliver(String kind) throws Exception {
        Supplier<TaskStore> stores = stores(kind);
        OnA started = startOnA(stores.get());
        FakeTaskChannel seenByA = started.server();
        List<String> heardByA = started.heard();
        McpTasks a = started.tasks();
        McpTask t = started.task();
        t.addListener((task, s) -> { });
        // another owner is granted the task (as after a pause of a longer than its lease): a's heartbeat is refused
        TaskRecord r = stores.get().list(SRV).getFirst();
        stores.get().put(r.withOwner("thief", Instant.now().plusSeconds(60)));
        eventually("a lost the lease", () -> a.leases().lease(SRV, t.id()).isEmpty());
        seenByA.script(t.id(), completed("too late"));
        eventually("a's handle ended", () -> t.status() == TaskStatus.COMPLETED);
        Thread.sleep(100);
        assertThat(heardByA).as("a's end is not delivered: another owner drives the task").isEmpty();
        TaskRecord now = stores.get().list(SRV).getFirst();
        assertThat(now.owner()).isEqualTo("thief");
        assertThat(now.retainUntil()).isNull();
        assertThat(now.lastStatus()).isEqualTo(TaskStatus.WORKING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aTaskThatEndsWithNoRetentionIsRemovedAndItsFailureIsStoredAsAnError(String kind) throws Exception {
        TaskStore store = stores(kind).get();
        FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
        server.pollIntervalMs = 20;
        List<TaskRecord> heard = new CopyOnWriteArrayList<>();
        McpTasks tasks = McpTasks.newBuilder().store(store).resultListener(heard::add)
                .minPollInterval(Duration.ofMillis(10)).build();
        tasks.support().bind(server);
        closers.add(() -> {
            server.close();
            tasks.support().clientClosed();
        });
        McpTask t = tasks.callToolAsTask("slow_compute", Map.of("script", List.of(task("working"),
                task("failed", "error", Map.of("code", -32000, "message", "the tool broke")))),
                RequestOptions.DEFAULT);
        t.addListener((task, s) -> { });
        eventually("delivered", () -> heard.size() == 1);
        assertThat(heard.getFirst().lastStatus()).isEqualTo(TaskStatus.FAILED);
        assertThat(heard.getFirst().result()).isEqualTo(Map.of("error", Map.of("code", -32000,
                "message", "the tool broke")));
        // the listener is told before the record is removed (a failing removal must not cost the delivery)
        eventually("the default retention is zero: removed", () -> store.list(SRV).isEmpty());
        assertThat(tasks.owner()).as("the default owner: an id with this process").contains("@");
    }

    @org.junit.jupiter.api.Test
    void theBuilderChecksTheFleetSettings() {
        McpTasks.Builder b = McpTasks.newBuilder();
        assertThatThrownBy(() -> b.owner("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 200");
        assertThatThrownBy(() -> b.leaseLength(Duration.ofMillis(99))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100 ms");
        assertThatThrownBy(() -> b.claimInterval(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> b.resultRetention(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    // ------------------------------------------------------------------------------------------------ bt41 item 1

    /** A pid no process of this machine has (Linux's pids stay below 2^22). */
    private static final long NO_SUCH_PID = 999_999_999L;
    /** The host id of "another machine" sharing the store. */
    private static final String OTHER_HOST = "0123456789abcdef";

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void anotherHostsOwnerIsJudgedByItsLeaseNeverByItsPid(String kind) throws Exception {
        assertThat(TaskOwner.HOST).isNotEqualTo(OTHER_HOST).matches("[0-9a-f]{16}");
        TaskStore store = stores(kind).get();
        FakeTaskChannel server = new FakeTaskChannel(Era.MODERN);
        server.pollIntervalMs = 20;
        String foreign = "a@" + NO_SUCH_PID + "@-@" + OTHER_HOST; // a replica on another machine: its pid is not ours
        String liveLease = server.newTask(task("working"));
        String noLease = server.newTask(task("working"));
        String passedLease = server.newTask(task("working"));
        String localDead = server.newTask(task("working"));
        String legacy = server.newTask(task("working"));
        Instant later = Instant.now().plus(Duration.ofMinutes(1));
        store.put(record(liveLease).withOwner(foreign, later));
        store.put(record(noLease).withOwner(foreign, null));
        store.put(record(passedLease).withOwner(foreign, Instant.now().minusSeconds(1)));
        store.put(record(localDead).withOwner(TaskOwner.ofProcess("c", NO_SUCH_PID, "-"), later));
        store.put(record(legacy).withOwner("d@" + NO_SUCH_PID + "@-", later)); // an id without a host
        McpTasks b = replica(server, store, TaskOwner.ofProcess("b", ProcessHandle.current().pid(), "-"),
                Duration.ofMinutes(1), Duration.ZERO, r -> { });
        assertThat(b.resumeTasks()).as("only what is free: a passed lease, a gone process of this host")
                .extracting(McpTask::id).containsExactlyInAnyOrder(passedLease, localDead);
        assertThat(b.claimDue()).as("claimDue takes no live lease either").isEmpty();
        Map<String, TaskRecord> stored = new java.util.HashMap<>();
        store.list(SRV).forEach(r -> stored.put(r.taskId(), r));
        assertThat(stored.get(liveLease).owner()).isEqualTo(foreign);
        assertThat(stored.get(liveLease).leaseUntil()).isEqualTo(later);
        assertThat(stored.get(noLease).owner()).as("no lease end: its owner cannot be looked up").isEqualTo(foreign);
        assertThat(stored.get(legacy).owner()).startsWith("d@");
        assertThat(stored.get(passedLease).owner()).isEqualTo(b.owner());
        assertThat(stored.get(localDead).owner()).isEqualTo(b.owner());
    }

    @org.junit.jupiter.api.Test
    void aDefaultOwnerIdNamesThisHost() {
        String owner = McpTasks.newBuilder().build().owner();
        assertThat(owner).endsWith("@" + TaskOwner.HOST).matches("[^@]+@\\d+@(-|\\d+)@[0-9a-f]{16}");
        assertThat(TaskOwner.isLocalProcessId(owner)).isTrue();
        assertThat(TaskOwner.isLocalProcessId(owner.replace(TaskOwner.HOST, OTHER_HOST))).isFalse();
        assertThat(TaskOwner.alive(owner.replace(TaskOwner.HOST, OTHER_HOST).replaceFirst("@\\d+@",
                "@" + NO_SUCH_PID + "@"))).as("another host's owner cannot be looked up: alive").isTrue();
        assertThat(TaskOwner.alive(TaskOwner.ofProcess("x", NO_SUCH_PID, "-"))).isFalse();
    }
}
