package dev.loommcp.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.tasks.TaskLease;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.tasks.TaskStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Resume on any replica on {@link JdbcTaskStore} (issue 32 item 3): the fenced {@code update} and {@code complete}
 * on the fence column, lease expiry on the database's clock and take-over, heartbeat loss, and exactly one delivery
 * per task when replicas with short leases race. Several store instances stand for the replicas.
 */
class JdbcTaskFleetTest extends PgTest {

    private static TaskRecord record(String server, String id) {
        return JdbcTaskStoreTest.record(server, id);
    }

    private static TaskRecord ended(TaskRecord r, String text) {
        return new TaskRecord(r.taskId(), r.serverKey(), r.era(), r.toolName(), r.createdAt(), r.ttl(),
                TaskStatus.COMPLETED, null, r.learnedAt(), null, Map.of(),
                Map.of("content", List.of(Map.of("type", "text", "text", text))),
                Instant.now().plus(Duration.ofMinutes(10)));
    }

    @Test
    void aStaleOwnerIsFencedOffAfterATakeOverAndAnEndIsRecordedOnce() throws Exception {
        String srv = "https://fence.example.com/mcp";
        TaskStore a = JdbcTaskStore.create(db.dataSource);
        TaskStore b = JdbcTaskStore.create(db.dataSource);
        a.put(record(srv, "t1"));
        TaskLease la = a.claim(srv, "t1", "replica-a", Duration.ofMillis(200)).orElseThrow();
        assertThat(a.update(la, record(srv, "t1"))).isTrue();
        Optional<TaskLease> taken = Optional.empty();
        for (int i = 0; i < 200 && taken.isEmpty(); i++) { // a pauses past its lease; b takes over (bounded wait)
            Thread.sleep(20);
            List<TaskLease> due = b.claimDue(srv, "replica-b", Duration.ofMinutes(1), 10);
            taken = due.stream().findFirst();
        }
        TaskLease lb = taken.orElseThrow();
        assertThat(lb.fence()).isGreaterThan(la.fence());
        assertThat(a.heartbeat(la, Duration.ofMinutes(1))).as("a's heartbeat is lost").isEmpty();
        TaskRecord input = new TaskRecord("t1", srv, Era.MODERN, "slow_compute", record(srv, "t1").createdAt(),
                Duration.ofHours(1), TaskStatus.INPUT_REQUIRED, null, null, null,
                Map.of("k", Map.of("method", "elicitation/create")), null, null);
        assertThat(a.update(la, input)).as("a's late write is fenced off").isFalse();
        assertThat(a.complete(la, ended(record(srv, "t1"), "from a"))).isFalse();
        assertThat(b.update(lb, input)).isTrue();
        TaskRecord stored = b.list(srv).getFirst();
        assertThat(stored.owner()).isEqualTo("replica-b");
        assertThat(stored.lastStatus()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(stored.inputRequests()).containsKey("k");

        assertThat(b.complete(lb, ended(record(srv, "t1"), "from b"))).isTrue();
        assertThat(b.complete(lb, ended(record(srv, "t1"), "again"))).as("once").isFalse();
        TaskRecord done = a.list(srv).getFirst();
        assertThat(done.owner()).isNull();
        assertThat(done.leaseUntil()).isNull();
        assertThat(done.lastStatus()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.result()).isEqualTo(Map.of("content", List.of(Map.of("type", "text", "text", "from b"))));
        assertThat(done.retainUntil()).isAfter(Instant.now());
        assertThat(a.claimDue(srv, "replica-c", Duration.ofMinutes(1), 10)).as("ended: not claimed").isEmpty();
        assertThat(a.claim(srv, "t1", "replica-c", Duration.ofMinutes(1))).isEmpty();
        assertThatThrownBy(() -> b.complete(lb, record(srv, "t1"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("terminal");
        assertThatThrownBy(() -> b.update(lb, record(srv, "t2"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another task");
    }

    @Test
    void racingReplicasWithShortLeasesDeliverEveryTaskExactlyOnce() throws Exception {
        String srv = "https://race-deliver.example.com/mcp";
        int tasks = 60;
        TaskStore setup = JdbcTaskStore.create(db.dataSource);
        for (int i = 0; i < tasks; i++) {
            setup.put(record(srv, "t" + i));
        }
        Map<String, AtomicInteger> delivered = new ConcurrentHashMap<>();
        AtomicInteger lost = new AtomicInteger();
        int replicas = 6;
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(replicas)) {
            List<Future<?>> runs = new ArrayList<>();
            for (int w = 0; w < replicas; w++) {
                String owner = "replica-" + w;
                TaskStore s = JdbcTaskStore.create(db.dataSource);
                runs.add(pool.submit(() -> {
                    go.await();
                    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    while (delivered.size() < tasks && System.nanoTime() - end < 0) {
                        for (TaskLease l : s.claimDue(srv, owner, Duration.ofMillis(20), 4)) {
                            Thread.sleep(ThreadLocalRandom.current().nextInt(40)); // often outlasts the lease
                            if (s.complete(l, ended(record(srv, l.taskId()), owner))) {
                                delivered.computeIfAbsent(l.taskId(), k -> new AtomicInteger()).incrementAndGet();
                            } else {
                                lost.incrementAndGet();
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
        assertThat(lost.get()).as("the race happened: some replicas lost their task to another").isPositive();
        assertThat(setup.list(srv)).allSatisfy(r -> assertThat(r.retainUntil()).isNotNull());
    }
}
