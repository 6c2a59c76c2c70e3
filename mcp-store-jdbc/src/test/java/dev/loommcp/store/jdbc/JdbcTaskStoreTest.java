package dev.loommcp.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.Deadline;
import dev.loommcp.config.Era;
import dev.loommcp.tasks.TaskLease;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.tasks.TaskStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** {@link JdbcTaskStore} on the run's private PostgreSQL; several store instances stand for a fleet's replicas. */
class JdbcTaskStoreTest extends PgTest {

    static TaskRecord record(String server, String id) {
        return new TaskRecord(id, server, Era.MODERN, "slow_compute", Instant.parse("2026-12-01T03:00:00.123456789Z"),
                Duration.ofHours(1), TaskStatus.WORKING);
    }

    @Test
    void recordsKeepEveryFieldInCreationOrder() {
        TaskStore s = JdbcTaskStore.create(db.dataSource);
        String srv = "https://fields.example.com/mcp";
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("confirm", Map.of("method", "elicitation/create", "params", Map.of("message", "go?")));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("content", List.of(Map.of("type", "text", "text", "42")));
        result.put("isError", false);
        TaskRecord full = new TaskRecord("t1 \"odd\" é", srv, Era.LEGACY, "tool", Instant.parse(
                "2026-12-01T03:00:00.123456789Z"), null, TaskStatus.INPUT_REQUIRED, "owner-a",
                Instant.parse("2026-12-01T03:00:01.5Z"), Instant.parse("2030-01-01T00:00:00.123456Z"), inputs, result,
                Instant.parse("2030-01-02T00:00:00Z"));
        s.put(full);
        s.put(record(srv, "t2"));
        s.put(record("https://elsewhere.example.com/mcp", "t3"));
        assertThat(JdbcTaskStore.create(db.dataSource).list(srv)).containsExactly(full, record(srv, "t2"));
        s.put(new TaskRecord("t1 \"odd\" é", srv, Era.LEGACY, "tool", full.createdAt(), null, TaskStatus.WORKING));
        assertThat(s.list(srv)).extracting(TaskRecord::taskId).containsExactly("t1 \"odd\" é", "t2");
        assertThat(s.list(srv).getFirst().lastStatus()).isEqualTo(TaskStatus.WORKING);
        s.remove(srv, "t2");
        s.remove(srv, "never");
        assertThat(s.list(srv)).extracting(TaskRecord::taskId).containsExactly("t1 \"odd\" é");
        // an ended record past its retention is dropped on the next put
        s.put(new TaskRecord("done", srv, Era.MODERN, "tool", full.createdAt(), null, TaskStatus.COMPLETED, null,
                null, null, Map.of(), result, Instant.now().minusSeconds(5)));
        s.put(record(srv, "t4"));
        assertThat(s.list(srv)).extracting(TaskRecord::taskId).doesNotContain("done");
    }

    @Test
    void leasesExcludeOtherReplicasExpireOnTheDatabaseClockAndFence() throws Exception {
        String srv = "https://lease.example.com/mcp";
        TaskStore a = JdbcTaskStore.create(db.dataSource);
        TaskStore b = JdbcTaskStore.create(db.dataSource);
        a.put(record(srv, "t1"));
        TaskLease la = a.claim(srv, "t1", "replica-a", Duration.ofMillis(300)).orElseThrow();
        assertThat(la.fence()).isEqualTo(1);
        assertThat(b.claim(srv, "t1", "replica-b", Duration.ofMinutes(1))).isEmpty();
        assertThat(a.heartbeat(la, Duration.ofMillis(300))).isPresent();
        Optional<TaskLease> lb = Optional.empty();
        for (int i = 0; i < 100 && lb.isEmpty(); i++) { // a died: its lease ends (bounded wait)
            Thread.sleep(20);
            lb = b.claim(srv, "t1", "replica-b", Duration.ofMinutes(1));
        }
        assertThat(lb).isPresent();
        assertThat(lb.get().fence()).isGreaterThan(la.fence());
        assertThat(a.heartbeat(la, Duration.ofMinutes(1))).as("a lost it").isEmpty();
        assertThat(a.release(la)).isFalse();
        assertThat(b.list(srv).getFirst().owner()).isEqualTo("replica-b");
        assertThat(b.release(lb.get())).isTrue();
        assertThat(a.claim(srv, "t1", "replica-a", Duration.ofMinutes(1))).isPresent();
        assertThat(a.claim(srv, "missing", "replica-a", Duration.ofMinutes(1))).isEmpty();
        assertThatThrownBy(() -> a.claimDue(srv, "x", Duration.ofMinutes(1), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void replicasClaimingDueTasksAtOnceNeverGetOneTwice() throws Exception {
        String srv = "https://due.example.com/mcp";
        TaskStore setup = JdbcTaskStore.create(db.dataSource);
        int tasks = 120;
        for (int i = 0; i < tasks; i++) {
            setup.put(record(srv, "t" + i));
        }
        // a task some process drives for its lifetime (no lease end) is never due
        setup.put(new TaskRecord("owned", srv, Era.MODERN, "tool", Instant.now(), null, TaskStatus.WORKING,
                "live-owner", Instant.now()));
        int replicas = 6;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<TaskLease>>> got = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int r = 0; r < replicas; r++) {
                TaskStore s = JdbcTaskStore.create(db.dataSource);
                String owner = "replica-" + r;
                got.add(pool.submit(() -> {
                    start.await();
                    List<TaskLease> mine = new ArrayList<>();
                    for (int round = 0; round < tasks; round++) {
                        List<TaskLease> l = s.claimDue(srv, owner, Duration.ofMinutes(1), 7);
                        if (l.isEmpty()) {
                            break;
                        }
                        mine.addAll(l);
                    }
                    return mine;
                }));
            }
            start.countDown();
            Set<String> seen = new HashSet<>();
            for (Future<List<TaskLease>> f : got) {
                for (TaskLease l : f.get()) {
                    assertThat(seen.add(l.taskId())).as("claimed twice: %s", l.taskId()).isTrue();
                }
            }
            assertThat(seen).hasSize(tasks).doesNotContain("owned");
        }
    }

    @Test
    void theRecordClaimOfResumeTasksIsAtomicAcrossReplicas() throws Exception {
        String srv = "https://resume.example.com/mcp";
        TaskStore setup = JdbcTaskStore.create(db.dataSource);
        for (int i = 0; i < 10; i++) {
            setup.put(record(srv, "t" + i));
        }
        int replicas = 4;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<TaskRecord>>> got = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int r = 0; r < replicas; r++) {
                TaskStore s = JdbcTaskStore.create(db.dataSource);
                String owner = "replica-" + r;
                got.add(pool.submit(() -> {
                    start.await();
                    return s.claim(srv, rec -> rec.owner() == null ? rec.withOwner(owner, null) : null,
                            Deadline.NONE);
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<List<TaskRecord>> f : got) {
                total += f.get().size();
            }
            assertThat(total).isEqualTo(10);
        }
    }
}
