package dev.loommcp.store.jdbc;

import dev.loommcp.config.Era;
import dev.loommcp.tasks.TaskLease;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.tasks.TaskStore;
import dev.loommcp.Deadline;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TaskStore} in a database the replicas of a backend share (table {@code mcp_tasks}: {@link JdbcSchema}),
 * on the application's {@link DataSource}. Records keep every field of {@link TaskRecord} (times to the
 * microsecond for lease and retention ends, exactly for the others; input requests and results as JSON text).
 * Leases take their time from the database ({@code now()}) and count grants in a fence column;
 * {@link #claimDue} claims with {@code SELECT ... FOR UPDATE SKIP LOCKED}, so replicas claiming at once never
 * wait for each other nor get one task twice.
 *
 * <p>Across machines an owner's process cannot be looked up: a record with an owner and no lease end (what
 * an older {@code McpTasks} wrote for a task it drove) is not claimed by
 * {@link #claim(String, String, String, Duration)} or {@link #claimDue} (it is the owner's for as long as it lives);
 * {@code McpTasks} holds a heartbeated lease on every task it drives, so its tasks are claimed once it died and its
 * leases passed. {@link #update} and {@link #complete} are fenced by the lease's {@code fence} column. The record
 * claim of {@code McpTasks.resumeTasks} decides itself.
 *
 * <p>Timeouts, failures and threads as {@link JdbcTokenStore}: one short transaction per operation under
 * {@code statement_timeout}, {@link UncheckedIOException} naming the operation and SQLState. Ended records past
 * their {@link TaskRecord#retainUntil()} are deleted on each {@link #put}. Thread-safe.
 */
public final class JdbcTaskStore implements TaskStore {

    private static final System.Logger LOG = System.getLogger(JdbcTaskStore.class.getName());
    /** The statuses and eras of rows this version reads: others (a newer version's) are never claimed here. */
    private static final String READABLE = " and last_status in (" + TaskJson.quotedList(
            java.util.Arrays.stream(TaskStatus.values()).filter(st -> st != TaskStatus.UNKNOWN)
                    .map(TaskStatus::wireName).toList())
            + ") and era in (" + TaskJson.quotedList(java.util.Arrays.stream(Era.values()).map(Era::name).toList())
            + ")";
    private static final String COLUMNS = "task_id, server_key, era, tool_name, created_at, ttl_ms, last_status,"
            + " owner, learned_at, lease_until, input_requests, result, retain_until";

    private final Sql sql;

    private JdbcTaskStore(Sql sql) {
        this.sql = sql;
    }

    /**
     * Creates a store with statements timing out after 10 s.
     *
     * @param dataSource the application's data source (a pool), with the schema applied ({@link JdbcSchema})
     * @return the store (no database access yet)
     */
    public static JdbcTaskStore create(DataSource dataSource) {
        return create(dataSource, Duration.ofSeconds(10));
    }

    /**
     * Creates a store.
     *
     * @param dataSource       the application's data source, with the schema applied
     * @param statementTimeout how long one statement may take (a lock wait three quarters of it; the client waits
     *                         5 s more for an answer), at least 1 ms and at most about 24.8 days
     * @return the store
     * @throws IllegalArgumentException if the timeout is shorter than 1 ms or longer than PostgreSQL's limit
     */
    public static JdbcTaskStore create(DataSource dataSource, Duration statementTimeout) {
        Objects.requireNonNull(dataSource, "dataSource");
        Sql.checkTimeout(statementTimeout);
        return new JdbcTaskStore(new Sql(dataSource, statementTimeout, "the JDBC task store"));
    }

    // ------------------------------------------------------------------------------------------------ records

    private static void bind(PreparedStatement ps, TaskRecord r) throws SQLException {
        checkKeys(r);
        ps.setString(1, r.taskId());
        ps.setString(2, r.serverKey());
        ps.setString(3, r.era().name());
        ps.setString(4, r.toolName());
        ps.setString(5, r.createdAt().toString());
        if (r.ttl() == null) {
            ps.setNull(6, Types.BIGINT);
        } else {
            ps.setLong(6, r.ttl().toMillis());
        }
        ps.setString(7, r.lastStatus().wireName());
        ps.setString(8, r.owner());
        ps.setString(9, r.learnedAt() == null ? null : r.learnedAt().toString());
        ps.setTimestamp(10, r.leaseUntil() == null ? null : Timestamp.from(r.leaseUntil()));
        ps.setString(11, r.inputRequests().isEmpty() ? null : TaskJson.write(r.inputRequests()));
        ps.setString(12, r.result() == null ? null : TaskJson.write(r.result()));
        ps.setTimestamp(13, r.retainUntil() == null ? null : Timestamp.from(r.retainUntil()));
    }

    /** A column of a row that this version cannot read (another version's value, or one changed by hand). */
    private static final class BadColumn extends Exception {
        private static final long serialVersionUID = 1L;
        final String column;

        BadColumn(String column, Throwable cause) {
            super("column " + column, null, false, false); // the cause may quote the value: never attached
            this.column = column;
            this.reason = cause.getClass().getSimpleName();
        }

        final String reason;
    }

    /** The record of the current row, or a {@link BadColumn} naming the first column this version cannot read. */
    private static TaskRecord row(ResultSet rs) throws SQLException, BadColumn {
        long ttl = rs.getLong(6);
        Duration ttlOrNull = rs.wasNull() ? null : Duration.ofMillis(ttl);
        String learned = rs.getString(9);
        Timestamp lease = rs.getTimestamp(10);
        String inputs = rs.getString(11);
        String result = rs.getString(12);
        Timestamp retain = rs.getTimestamp(13);
        return new TaskRecord(rs.getString(1), rs.getString(2), column("era", () -> Era.valueOf(rs.getString(3))),
                rs.getString(4), column("created_at", () -> Instant.parse(rs.getString(5))), ttlOrNull,
                column("last_status", () -> TaskStatus.parse(rs.getString(7))), rs.getString(8),
                learned == null ? null : column("learned_at", () -> Instant.parse(learned)),
                lease == null ? null : lease.toInstant(),
                inputs == null ? Map.of() : column("input_requests", () -> TaskJson.readObject(inputs)),
                result == null ? null : column("result", () -> TaskJson.readObject(result)),
                retain == null ? null : retain.toInstant());
    }

    private interface Read<T> {
        T read() throws SQLException;
    }

    private static <T> T column(String column, Read<T> read) throws SQLException, BadColumn {
        try {
            return read.read();
        } catch (RuntimeException e) {
            throw new BadColumn(column, e);
        }
    }

    private static void upsert(Connection c, TaskRecord r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into mcp_tasks (" + COLUMNS + ")"
                + " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (server_key, task_id) do update set"
                + " era = excluded.era, tool_name = excluded.tool_name, created_at = excluded.created_at,"
                + " ttl_ms = excluded.ttl_ms, last_status = excluded.last_status, owner = excluded.owner,"
                + " learned_at = excluded.learned_at, lease_until = excluded.lease_until,"
                + " input_requests = excluded.input_requests, result = excluded.result,"
                + " retain_until = excluded.retain_until")) {
            bind(ps, r);
            ps.executeUpdate();
        }
    }

    @Override
    public void put(TaskRecord record) {
        TaskStore.checkStorable(record);
        sql.tx("record the task", c -> {
            upsert(c, record);
            try (PreparedStatement ps = c.prepareStatement("delete from mcp_tasks where retain_until < now()")) {
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void remove(String serverKey, String taskId) {
        Sql.key(serverKey, "the server key");
        Sql.key(taskId, "the task id");
        sql.tx("forget the task", c -> {
            try (PreparedStatement ps = c.prepareStatement("delete from mcp_tasks where server_key = ?"
                    + " and task_id = ?")) {
                ps.setString(1, serverKey);
                ps.setString(2, taskId);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public List<TaskRecord> list(String serverKey) {
        Sql.key(serverKey, "the server key");
        return sql.tx("list the tasks", c -> select(c, serverKey, false));
    }

    private static List<TaskRecord> select(Connection c, String serverKey, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + COLUMNS + " from mcp_tasks where server_key = ?"
                + " order by seq" + (lock ? " for update" : ""))) {
            ps.setString(1, serverKey);
            List<TaskRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    try {
                        out.add(row(rs));
                    } catch (BadColumn e) {
                        // one unreadable row never hides the others; its value is not logged
                        LOG.log(System.Logger.Level.WARNING, "the JDBC task store skips task {0} of server {1}:"
                                + " its column {2} cannot be read by this version ({3}; written by a newer"
                                + " loom-mcp or changed by hand)", Sql.shown(rs.getString(1)),
                                Sql.shown(serverKey), e.column, e.reason);
                    }
                }
            }
            return out;
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>In one transaction with the server's rows locked ({@code FOR UPDATE}): two replicas resuming at once take
     * turns.
     */
    @Override
    public List<TaskRecord> claim(String serverKey, Function<TaskRecord, @Nullable TaskRecord> claim,
                                  Deadline deadline) {
        Sql.key(serverKey, "the server key");
        Objects.requireNonNull(claim, "claim");
        return sql.tx("claim the tasks", c -> {
            List<TaskRecord> taken = new ArrayList<>();
            for (TaskRecord r : select(c, serverKey, true)) {
                TaskRecord n = claim.apply(r);
                if (n != null) {
                    TaskStore.checkStorable(n);
                    if (!n.equals(r)) {
                        upsert(c, n);
                    }
                    taken.add(n);
                }
            }
            return taken;
        });
    }

    // ------------------------------------------------------------------------------------------------ leases

    private static List<TaskLease> leases(PreparedStatement ps, String serverKey, String owner) throws SQLException {
        List<TaskLease> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new TaskLease(serverKey, rs.getString(1), owner, rs.getLong(2),
                        rs.getTimestamp(3).toInstant()));
            }
        }
        return out;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One {@code UPDATE}: the database's clock decides whether the current lease ended; the fence counts grants.
     */
    @Override
    public Optional<TaskLease> claim(String serverKey, String taskId, String owner, Duration length) {
        Sql.key(serverKey, "the server key");
        Sql.key(taskId, "the task id");
        Sql.id(owner, "the owner");
        long ms = Sql.leaseMillis(length);
        return sql.tx("claim the task", c -> {
            try (PreparedStatement ps = c.prepareStatement("update mcp_tasks set owner = ?, fence = fence + 1,"
                    + " lease_until = now() + ? * interval '1 millisecond' where server_key = ? and task_id = ?"
                    + " and retain_until is null and (owner is null or owner = ? or lease_until <= now())" + READABLE
                    + " returning task_id, fence, lease_until")) {
                ps.setString(1, owner);
                ps.setLong(2, ms);
                ps.setString(3, serverKey);
                ps.setString(4, taskId);
                ps.setString(5, owner);
                return leases(ps, serverKey, owner).stream().findFirst();
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code UPDATE ... WHERE (server_key, task_id) IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT n)}: rows another
     * replica is claiming at that moment are skipped, not waited for. Oldest (first recorded) first.
     */
    @Override
    public List<TaskLease> claimDue(String serverKey, String owner, Duration length, int limit) {
        Sql.key(serverKey, "the server key");
        Sql.id(owner, "the owner");
        long ms = Sql.leaseMillis(length);
        if (limit <= 0) {
            throw new IllegalArgumentException("the limit must be positive, was " + limit);
        }
        return sql.tx("claim the due tasks", c -> {
            try (PreparedStatement ps = c.prepareStatement("update mcp_tasks set owner = ?, fence = fence + 1,"
                    + " lease_until = now() + ? * interval '1 millisecond' where server_key = ? and task_id in ("
                    + "select task_id from mcp_tasks where server_key = ?"
                    + " and retain_until is null and (owner is null or lease_until <= now())" + READABLE
                    + " order by seq limit ? for update skip locked)"
                    + " returning task_id, fence, lease_until")) {
                ps.setString(1, owner);
                ps.setLong(2, ms);
                ps.setString(3, serverKey);
                ps.setString(4, serverKey);
                ps.setInt(5, limit);
                return leases(ps, serverKey, owner);
            }
        });
    }

    @Override
    public Optional<TaskLease> heartbeat(TaskLease lease, Duration length) {
        Objects.requireNonNull(lease, "lease");
        long ms = Sql.leaseMillis(length);
        return sql.tx("extend the task lease", c -> {
            try (PreparedStatement ps = c.prepareStatement("update mcp_tasks set"
                    + " lease_until = now() + ? * interval '1 millisecond' where server_key = ? and task_id = ?"
                    + " and owner = ? and fence = ? returning task_id, fence, lease_until")) {
                ps.setLong(1, ms);
                ps.setString(2, lease.serverKey());
                ps.setString(3, lease.taskId());
                ps.setString(4, lease.owner());
                ps.setLong(5, lease.fence());
                return leases(ps, lease.serverKey(), lease.owner()).stream().findFirst();
            }
        });
    }

    @Override
    public boolean release(TaskLease lease) {
        Objects.requireNonNull(lease, "lease");
        return sql.tx("release the task lease", c -> {
            try (PreparedStatement ps = c.prepareStatement("update mcp_tasks set owner = null, lease_until = null"
                    + " where server_key = ? and task_id = ? and owner = ? and fence = ?")) {
                ps.setString(1, lease.serverKey());
                ps.setString(2, lease.taskId());
                ps.setString(3, lease.owner());
                ps.setLong(4, lease.fence());
                return ps.executeUpdate() == 1;
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>One {@code UPDATE ... WHERE owner = ? AND fence = ? AND retain_until IS NULL}: the fence, not the lease end,
     * decides (a holder whose lease passed unclaimed still writes; one whose task was granted to another since
     * does not).
     */
    @Override
    public boolean update(TaskLease lease, TaskRecord record) {
        checkSameTask(lease, record);
        return sql.tx("update the task", c -> fenced(c, lease, record, false));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One fenced {@code UPDATE} (as {@link #update}) that also clears the owner and lease end and sets
     * {@code retain_until}: two replicas completing one task at once are serialized by the row lock, and the second
     * finds the row ended.
     */
    @Override
    public boolean complete(TaskLease lease, TaskRecord ended) {
        checkSameTask(lease, ended);
        if (!ended.lastStatus().isTerminal() || ended.retainUntil() == null) {
            throw new IllegalArgumentException("a completed task needs a terminal status and a retention end, was "
                    + ended.lastStatus().wireName() + (ended.retainUntil() == null ? " with none" : ""));
        }
        return sql.tx("complete the task", c -> fenced(c, lease, ended, true));
    }

    /** The record's ids and names are text the database stores as given ({@link Sql#key}). */
    private static void checkKeys(TaskRecord r) {
        Sql.key(r.taskId(), "the task id");
        Sql.key(r.serverKey(), "the server key");
        Sql.key(r.toolName(), "the tool name");
        if (r.owner() != null) {
            Sql.id(r.owner(), "the owner");
        }
    }

    private static void checkSameTask(TaskLease lease, TaskRecord record) {
        Objects.requireNonNull(lease, "lease");
        TaskStore.checkStorable(record);
        if (!lease.taskId().equals(record.taskId()) || !lease.serverKey().equals(record.serverKey())) {
            throw new IllegalArgumentException("the record is of another task than the lease");
        }
    }

    private static boolean fenced(Connection c, TaskLease lease, TaskRecord r, boolean end) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update mcp_tasks set ttl_ms = ?, last_status = ?,"
                + " input_requests = ?, result = ?"
                + (end ? ", retain_until = ?, owner = null, lease_until = null" : "")
                + " where server_key = ? and task_id = ? and owner = ? and fence = ? and retain_until is null")) {
            int i = 1;
            if (r.ttl() == null) {
                ps.setNull(i++, Types.BIGINT);
            } else {
                ps.setLong(i++, r.ttl().toMillis());
            }
            ps.setString(i++, r.lastStatus().wireName());
            ps.setString(i++, r.inputRequests().isEmpty() ? null : TaskJson.write(r.inputRequests()));
            ps.setString(i++, r.result() == null ? null : TaskJson.write(r.result()));
            if (end) {
                ps.setTimestamp(i++, Timestamp.from(r.retainUntil()));
            }
            ps.setString(i++, lease.serverKey());
            ps.setString(i++, lease.taskId());
            ps.setString(i++, lease.owner());
            ps.setLong(i, lease.fence());
            return ps.executeUpdate() == 1;
        }
    }

    @Override
    public String toString() {
        return "JdbcTaskStore";
    }
}
