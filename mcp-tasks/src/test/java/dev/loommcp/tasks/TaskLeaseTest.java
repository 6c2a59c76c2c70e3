package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The task leases of {@link TaskStore} (claim, claimDue, heartbeat, release: the defaults on the atomic record claim)
 * and the resume fields of {@link TaskRecord}, against both shipped stores.
 */
class TaskLeaseTest {

    static final String SRV = "https://mcp.example.com/mcp";

    @TempDir
    Path dir;

    private Supplier<TaskStore> store(String kind) {
        return kind.equals("memory") ? InMemoryTaskStore::new : () -> new FileTaskStore(dir.resolve("tasks.json"));
    }

    private static TaskRecord record(String id, int minute) {
        return new TaskRecord(id, SRV, Era.MODERN, "slow_compute",
                Instant.parse("2026-12-01T03:00:00Z").plusSeconds(60L * minute), Duration.ofHours(1),
                TaskStatus.WORKING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void aLeaseExcludesOtherOwnersUntilItEndsOrIsReleased(String kind) throws Exception {
        TaskStore s = store(kind).get();
        s.put(record("t1", 0));
        assertThat(s.claim(SRV, "nope", "a", Duration.ofMinutes(1))).as("not recorded").isEmpty();
        TaskLease a = s.claim(SRV, "t1", "a", Duration.ofMinutes(1)).orElseThrow();
        assertThat(a.owner()).isEqualTo("a");
        assertThat(s.list(SRV).getFirst().owner()).isEqualTo("a");
        assertThat(s.list(SRV).getFirst().leaseUntil()).isEqualTo(a.until());
        assertThat(s.claim(SRV, "t1", "b", Duration.ofMinutes(1))).as("a's lease runs").isEmpty();
        assertThat(s.heartbeat(a, Duration.ofMinutes(2))).get().extracting(TaskLease::until)
                .matches(u -> u.isAfter(a.until()));
        assertThat(s.release(a)).isTrue();
        assertThat(s.list(SRV).getFirst().owner()).isNull();
        TaskLease b = s.claim(SRV, "t1", "b", Duration.ofMillis(1)).orElseThrow();
        assertThat(s.heartbeat(a, Duration.ofMinutes(1))).as("a lost it to b").isEmpty();
        assertThat(s.release(a)).isFalse();
        Thread.sleep(5);
        // b died: its lease ended, anyone claims the task
        assertThat(s.claim(SRV, "t1", "c", Duration.ofMinutes(1))).isPresent();
        assertThat(s.heartbeat(b, Duration.ofMinutes(1))).isEmpty();
        assertThatThrownBy(() -> s.claim(SRV, "t1", "c", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> s.claimDue(SRV, "c", Duration.ofMinutes(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void concurrentClaimersOfDueTasksNeverGetTheSameTask(String kind) throws Exception {
        TaskStore s = store(kind).get();
        int tasks = 40;
        for (int i = 0; i < tasks; i++) {
            s.put(record("t" + i, i));
        }
        s.claim(SRV, "t0", "alive-elsewhere", Duration.ofMinutes(5)).orElseThrow();
        int owners = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<TaskLease>>> got = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int o = 0; o < owners; o++) {
                String owner = "owner-" + o;
                got.add(pool.submit(() -> {
                    start.await();
                    List<TaskLease> mine = new ArrayList<>();
                    for (int round = 0; round < tasks; round++) { // bounded: each round claims or ends
                        List<TaskLease> l = s.claimDue(SRV, owner, Duration.ofMinutes(1), 3);
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
            int total = 0;
            for (Future<List<TaskLease>> f : got) {
                for (TaskLease l : f.get()) {
                    assertThat(seen.add(l.taskId())).as("claimed twice: %s", l.taskId()).isTrue();
                    total++;
                }
            }
            assertThat(total).isEqualTo(tasks - 1);
            assertThat(seen).doesNotContain("t0");
        }
    }

    @Test
    void claimDueTakesTheOldestFirst() {
        TaskStore s = new InMemoryTaskStore();
        s.put(record("late", 5));
        s.put(record("early", 1));
        s.put(record("middle", 3));
        assertThat(s.claimDue(SRV, "a", Duration.ofMinutes(1), 2)).extracting(TaskLease::taskId)
                .containsExactly("early", "middle");
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "file"})
    void theResumeFieldsSurviveTheStoreAndAnEndedTaskIsDroppedAfterItsRetention(String kind) {
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("confirm", Map.of("method", "elicitation/create", "params", Map.of("message", "go?")));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("content", List.of(Map.of("type", "text", "text", "42")));
        result.put("isError", false);
        Instant lease = Instant.parse("2030-01-01T00:00:00Z");
        TaskRecord open = new TaskRecord("t1", SRV, Era.MODERN, "slow_compute", Instant.parse("2026-12-01T03:00:00Z"),
                Duration.ofHours(1), TaskStatus.INPUT_REQUIRED, "a", Instant.now(), lease, inputs, null, null);
        TaskRecord ended = new TaskRecord("t2", SRV, Era.MODERN, "slow_compute",
                Instant.parse("2026-12-01T03:00:00Z"), Duration.ofHours(1), TaskStatus.COMPLETED, "a",
                Instant.now(), null, Map.of(), result, Instant.now().plus(Duration.ofHours(1)));
        TaskStore s = store(kind).get();
        s.put(open);
        s.put(ended);
        TaskStore again = store(kind).get();
        List<TaskRecord> read = (kind.equals("file") ? again : s).list(SRV);
        assertThat(read).containsExactly(open, ended);
        assertThat(read.getFirst().inputRequests()).isEqualTo(inputs);
        assertThat(read.get(1).result()).isEqualTo(result);
        // retention passed: the next change drops it
        s.put(new TaskRecord("t2", SRV, Era.MODERN, "slow_compute", ended.createdAt(), ended.ttl(),
                TaskStatus.COMPLETED, "a", ended.learnedAt(), null, Map.of(), result, Instant.now().minusSeconds(1)));
        s.put(record("t3", 0));
        assertThat(s.list(SRV)).extracting(TaskRecord::taskId).containsExactly("t1", "t3");
        // withOwner keeps every other field
        assertThat(open.withOwner("b", null)).satisfies(r -> {
            assertThat(r.owner()).isEqualTo("b");
            assertThat(r.leaseUntil()).isNull();
            assertThat(r.inputRequests()).isEqualTo(inputs);
        });
    }
}
