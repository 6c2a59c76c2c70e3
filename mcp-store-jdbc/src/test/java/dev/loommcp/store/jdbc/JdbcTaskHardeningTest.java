package dev.loommcp.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.Deadline;
import dev.loommcp.config.Era;
import dev.loommcp.tasks.TaskLease;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.tasks.TaskStore;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the break test of the fleet stores found in {@link JdbcTaskStore} (bt41): rows this version cannot read (a
 * newer version's status or era, columns changed by hand) are skipped with a WARNING naming the task and column,
 * never the value, and never claimed; records that cannot be stored are refused; another host's live lease is never
 * taken; JSON values keep their digits.
 */
class JdbcTaskHardeningTest extends PgTest {

    private static TaskRecord record(String server, String id) {
        return JdbcTaskStoreTest.record(server, id);
    }

    private static void tamper(String server, String id, String column, String value) throws Exception {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("update mcp_tasks set " + column
                + " = ? where server_key = ? and task_id = ?")) {
            ps.setString(1, value);
            ps.setString(2, server);
            ps.setString(3, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void anUnreadableRowIsSkippedWithAWarningNamingTheTaskAndColumnAndIsNeverClaimed() throws Exception {
        String srv = "https://bad-rows.example.com/mcp";
        TaskStore s = JdbcTaskStore.create(db.dataSource);
        Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("last_status", "paused-SECRETVALUE");
        bad.put("era", "2099-SECRETVALUE");
        bad.put("created_at", "yesterday-SECRETVALUE");
        bad.put("learned_at", "soon-SECRETVALUE");
        bad.put("input_requests", "{\"SECRETVALUE\": [1");
        bad.put("result", "[\"SECRETVALUE\"]");
        for (String column : bad.keySet()) {
            s.put(record(srv, "bad-" + column));
        }
        s.put(record(srv, "good"));
        for (Map.Entry<String, String> e : bad.entrySet()) {
            tamper(srv, "bad-" + e.getKey(), e.getKey(), e.getValue());
        }
        try (StoreLog log = new StoreLog()) {
            assertThat(s.list(srv)).extracting(TaskRecord::taskId).containsExactly("good");
            List<String> offered = new ArrayList<>();
            assertThat(s.claim(srv, r -> {
                offered.add(r.taskId());
                return r.withOwner("replica-a", Instant.now().plusSeconds(60));
            }, Deadline.NONE)).extracting(TaskRecord::taskId).containsExactly("good");
            assertThat(offered).containsExactly("good");
            for (String column : bad.keySet()) {
                assertThat(log.lines).as(column).anySatisfy(l -> assertThat(l).startsWith("WARNING")
                        .contains("\"bad-" + column + "\"").contains("column " + column));
            }
            assertThat(log.all()).doesNotContain("SECRETVALUE");
        }
        // a newer version's status or era is never leased here; the other unreadable rows are left to McpTasks
        List<String> due = s.claimDue(srv, "replica-b", Duration.ofMinutes(1), 100).stream()
                .map(TaskLease::taskId).toList();
        assertThat(due).doesNotContain("bad-last_status", "bad-era", "good");
        assertThat(s.claim(srv, "bad-era", "replica-b", Duration.ofMinutes(1))).isEmpty();
        assertThat(s.claim(srv, "bad-last_status", "replica-b", Duration.ofMinutes(1))).isEmpty();
    }

    @Test
    void aRecordThatCannotBeStoredIsRefusedNamingWhy() {
        String srv = "https://refused.example.com/mcp";
        TaskStore s = JdbcTaskStore.create(db.dataSource);
        TaskRecord unknown = new TaskRecord("u", srv, Era.MODERN, "t", Instant.now(), null, TaskStatus.UNKNOWN);
        assertThatThrownBy(() -> s.put(unknown)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("task u ").hasMessageContaining("unknown");
        Map<String, Object> thread = Map.of("content", List.of(Map.of("worker", Thread.currentThread())));
        assertThatThrownBy(() -> s.put(withResult(srv, "thread", thread)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("task thread ")
                .hasMessageContaining("not plain JSON").hasMessageContaining("java.lang.Thread");
        assertThatThrownBy(() -> s.put(withResult(srv, "nan", Map.of("x", Double.NaN))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not plain JSON");
        assertThatThrownBy(() -> s.put(withResult(srv, "inf", Map.of("x", Double.POSITIVE_INFINITY))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not plain JSON");
        s.put(record(srv, "r"));
        TaskLease l = s.claim(srv, "r", "replica-a", Duration.ofMinutes(1)).orElseThrow();
        assertThatThrownBy(() -> s.update(l, withResult(srv, "r", Map.of("x", Double.NaN))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.claim(srv, r -> new TaskRecord(r.taskId(), srv, Era.MODERN, "t", r.createdAt(),
                null, TaskStatus.UNKNOWN), Deadline.NONE)).isInstanceOf(IllegalArgumentException.class);
        assertThat(s.list(srv)).extracting(TaskRecord::taskId).containsExactly("r");
    }

    private static TaskRecord withResult(String srv, String id, Map<String, ?> result) {
        @SuppressWarnings("unchecked")
        Map<String, Object> r = (Map<String, Object>) result;
        return new TaskRecord(id, srv, Era.MODERN, "t", Instant.now(), null, TaskStatus.WORKING, null, null, null,
                Map.of(), r, null);
    }

    @Test
    void numbersInAResultReadBackWithEveryDigit() {
        String srv = "https://digits.example.com/mcp";
        TaskStore s = JdbcTaskStore.create(db.dataSource);
        Map<String, Object> result = Map.of("exact", new BigDecimal("0.1000000000000000000001"), "plain", 0.5,
                "tenth", 0.1, "big", new java.math.BigInteger("123456789012345678901234567890"), "n", 7);
        s.put(withResult(srv, "d", result));
        Map<String, Object> back = s.list(srv).getFirst().result();
        assertThat(back.get("exact")).isEqualTo(new BigDecimal("0.1000000000000000000001"));
        assertThat(back.get("plain")).isEqualTo(0.5);
        assertThat(back.get("tenth")).isEqualTo(0.1);
        assertThat(back.get("big")).isEqualTo(new java.math.BigInteger("123456789012345678901234567890"));
        assertThat(back.get("n")).isEqualTo(7);
    }

    @Test
    void anotherHostsLiveLeaseIsNeverTakenAndAnOwnerWithoutLeaseKeepsItsTask() {
        String srv = "https://other-host.example.com/mcp";
        TaskStore s = JdbcTaskStore.create(db.dataSource);
        String foreign = "a@999999999@-@0123456789abcdef"; // a replica on another machine; the pid is not ours
        s.put(record(srv, "leased").withOwner(foreign, null));
        s.put(record(srv, "no-lease").withOwner(foreign, null));
        assertThat(s.claim(srv, "leased", foreign, Duration.ofMinutes(1))).isPresent(); // its own lease
        assertThat(s.claim(srv, "leased", "b@1@-@fedcba9876543210", Duration.ofMinutes(1))).isEmpty();
        assertThat(s.claimDue(srv, "b@1@-@fedcba9876543210", Duration.ofMinutes(1), 10)).isEmpty();
        assertThat(s.claim(srv, "no-lease", "b@1@-@fedcba9876543210", Duration.ofMinutes(1))).isEmpty();
        assertThat(s.list(srv)).extracting(TaskRecord::owner).containsOnly(foreign);
    }
}
