package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.RequestOptions;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.it.servers.HttpTasksFixture;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.store.jdbc.JdbcTaskStore;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.transport.http.HttpTransport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * bt41 item 1 on a shared {@link JdbcTaskStore}: a task driven by a replica on another machine (its owner id names
 * another host; its pid means nothing here) is never taken by {@code resumeTasks()} or {@code claimDue()} of a replica
 * while its lease runs, and is claimed once the lease passed. The tasks fixture over HTTP, the run's PostgreSQL.
 */
class FleetResumeOtherHostTest extends TaskClients {

    private HttpTasksFixture server;
    private FleetDatabase db;

    @BeforeAll
    void start() throws Exception {
        db = FleetDatabase.open();
        server = new HttpTasksFixture();
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (db != null) {
            db.close();
        }
    }

    @Override
    protected McpTransport newTransport() {
        return HttpTransport.newBuilder(server.endpoint()).build();
    }

    @Override
    protected ProtocolMode mode() {
        return ProtocolMode.MODERN;
    }

    private static void setOwner(DataSource ds, String taskId, String owner, String leaseSql) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("update mcp_tasks set owner"
                + " = ?, lease_until = " + leaseSql + " where task_id = ?")) {
            ps.setString(1, owner);
            ps.setString(2, taskId);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void aLiveLeaseOfAReplicaOnAnotherHostIsNeverTakenAndIsClaimedOnceItPassed() throws Exception {
        DataSource ds = FleetDatabase.pool(db.url, 4);
        JdbcTaskStore store = JdbcTaskStore.create(ds, Duration.ofSeconds(5));
        // replica "a" starts the task and then stands for a replica on another machine
        Connected a = connect(t -> t.store(store).claimInterval(Duration.ZERO), c -> { });
        McpTask task = a.tasks().callToolAsTask("slow_compute", Map.of("seconds", 30), RequestOptions.DEFAULT);
        String foreign = "a1@999999999@-@0123456789abcdef";
        setOwner(ds, task.id(), foreign, "now() + interval '1 minute'");
        Connected b = connect(t -> t.store(store).claimInterval(Duration.ZERO), c -> { });
        assertThat(b.tasks().owner()).doesNotEndWith("@0123456789abcdef");
        assertThat(b.tasks().resumeTasks()).as("another host's live lease").isEmpty();
        assertThat(b.tasks().claimDue()).isEmpty();
        assertThat(store.list(serverKey(task.id())).stream().filter(r -> r.taskId().equals(task.id())).map(TaskRecord::owner)).containsExactly(foreign);
        // an id without a host (what every replica wrote before owner ids named their host): its pid is not judged
        setOwner(ds, task.id(), "a1@999999999@-", "now() + interval '1 minute'");
        assertThat(b.tasks().resumeTasks()).as("a live lease of an id without a host").isEmpty();
        assertThat(b.tasks().claimDue()).isEmpty();
        setOwner(ds, task.id(), foreign, "null");
        assertThat(b.tasks().resumeTasks()).as("no lease end: its owner cannot be looked up").isEmpty();
        setOwner(ds, task.id(), foreign, "now() - interval '1 second'");
        assertThat(b.tasks().claimDue()).extracting(McpTask::id).containsExactly(task.id());
        assertThat(store.list(serverKey(task.id())).stream().filter(r -> r.taskId().equals(task.id()))
                .map(TaskRecord::owner)).containsExactly(b.tasks().owner());
    }

    private String serverKey(String taskId) throws Exception {
        DataSource ds = FleetDatabase.pool(db.url, 1);
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select server_key from mcp_tasks where task_id = ?")) {
            ps.setString(1, taskId);
            try (var rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }
}
