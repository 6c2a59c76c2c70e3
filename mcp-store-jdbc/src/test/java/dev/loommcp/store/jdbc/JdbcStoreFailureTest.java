package dev.loommcp.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.auth.RefreshLease;
import dev.loommcp.auth.TokenSet;
import dev.loommcp.auth.TokenStore;
import dev.loommcp.config.Era;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.tasks.TaskStore;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * How the JDBC stores fail (bt41 items 4 to 9): a newer schema, a stalled database, a pool or driver that fails in odd
 * ways, values the database cannot key, leases released twice; every failure names what was wrong and never a value.
 * Its own schema ({@link PgTest}): it adds a version row and a constraint the other classes never see.
 */
class JdbcStoreFailureTest extends PgTest {

    private static final String RES = "https://failures.example.com/mcp";
    private static final String ISS = JdbcTokenStoreTest.ISS;

    private static JdbcTokenStore tokens(DataSource ds, Duration timeout) {
        return JdbcTokenStore.newBuilder(ds).encryptionKey("k1", new SecretKeySpec(JdbcTokenStoreTest.KEY, "AES"))
                .statementTimeout(timeout).build();
    }

    /** A data source handing out one connection (never closed by the store), or the given failure. */
    private static DataSource single(Connection c) {
        Connection kept = (Connection) Proxy.newProxyInstance(JdbcStoreFailureTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (p, m, a) -> m.getName().equals("close") ? null : invoke(c, m, a));
        return failing(() -> kept);
    }

    private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private interface Source {
        Connection get() throws SQLException;
    }

    private static DataSource failing(Source source) {
        return (DataSource) Proxy.newProxyInstance(JdbcStoreFailureTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (p, m, a) -> {
                    if (m.getName().equals("getConnection")) {
                        return source.get();
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
    }

    @Test
    void aSchemaNewerThanThisVersionIsRefusedByTheMigrationAndTheStores() throws Exception {
        JdbcTaskStore tasks = JdbcTaskStore.create(db.dataSource);
        tasks.put(JdbcTaskStoreTest.record("https://v.example.com/mcp", "t"));
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("insert into mcp_schema_version (version) values (2)");
        }
        try {
            assertThatThrownBy(() -> JdbcSchema.migrate(db.dataSource)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("schema is version 2").hasMessageContaining("newer loom-mcp")
                    .hasMessageContaining("knows version 1");
            assertThatThrownBy(() -> JdbcTaskStore.create(db.dataSource).list("https://v.example.com/mcp"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("JDBC task store")
                    .hasMessageContaining("newer loom-mcp");
            assertThatThrownBy(() -> tokens(db.dataSource, Duration.ofSeconds(10)).tokens(RES, ISS))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("JDBC token store")
                    .hasMessageContaining("newer loom-mcp");
            try (Connection c = db.connect(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("select count(*) from mcp_schema_version where version = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as("the refused migration added nothing").isEqualTo(1);
            }
        } finally {
            try (Connection c = db.connect(); Statement st = c.createStatement()) {
                st.execute("delete from mcp_schema_version where version = 2");
            }
        }
        JdbcSchema.migrate(db.dataSource);
        assertThat(JdbcTaskStore.create(db.dataSource).list("https://v.example.com/mcp")).hasSize(1);
    }

    @Test
    void aStalledDatabaseFailsTheCallAfterTheStatementTimeoutPlusTheGraceNotNever() throws Exception {
        tokens(db.dataSource, Duration.ofSeconds(10)).saveTokens(RES, new TokenSet(ISS, "at", "Bearer", null, null,
                null));
        try (Connection c = db.connect()) {
            long pid;
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select pg_backend_pid()")) {
                rs.next();
                pid = rs.getLong(1);
            }
            JdbcTokenStore stalled = tokens(single(c), Duration.ofMillis(200));
            assertThat(stalled.tokens(RES, ISS)).isPresent();
            signal("STOP", pid);
            Throwable failed;
            try (ExecutorService one = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<Throwable> call = one.submit(() -> {
                    try {
                        stalled.tokens(RES, ISS);
                        return null;
                    } catch (RuntimeException e) {
                        return e;
                    }
                });
                try {
                    failed = call.get(60, TimeUnit.SECONDS); // bounded: 200 ms + 5 s grace, far less
                } finally {
                    signal("CONT", pid); // before the executor's close waits for the call
                }
            }
            assertThat(failed).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("could not read the tokens")
                    .hasMessageContaining("did not answer within the network timeout");
        }
        assertThat(tokens(db.dataSource, Duration.ofSeconds(10)).tokens(RES, ISS)).as("usable again").isPresent();
    }

    private static void signal(String sig, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
    }

    @Test
    void poolAndDriverFailuresAreNamed() {
        assertThatThrownBy(() -> tokens(failing(() -> null), Duration.ofSeconds(1)).tokens(RES, ISS))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("gave no connection");
        assertThatThrownBy(() -> tokens(failing(() -> {
            throw new SQLException("pool exhausted after 30000 ms");
        }), Duration.ofSeconds(1)).tokens(RES, ISS)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("could not be had or used (java.sql.SQLException, no SQLState)")
                .hasMessageNotContaining("SQLState null");
        assertThatThrownBy(() -> tokens(failing(() -> {
            throw new SQLException("I/O error", "08006", new java.io.InterruptedIOException());
        }), Duration.ofSeconds(1)).tokens(RES, ISS)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("interrupted while waiting for the database");
        assertThatThrownBy(() -> tokens(db.dataSource, Duration.ofDays(25)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("24.8 days");
        assertThatThrownBy(() -> JdbcTaskStore.create(db.dataSource, Duration.ofDays(25)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("24.8 days");
        JdbcTokenStore store = tokens(db.dataSource, Duration.ofSeconds(10));
        assertThatThrownBy(() -> store.leaseRefresh(RES, ISS, "h", Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most");
        assertThatThrownBy(() -> JdbcTaskStore.create(db.dataSource).claimDue("s", "o",
                Duration.ofSeconds(Long.MAX_VALUE), 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most");
        String huge = "https://x.example.com/" + "a".repeat(1 << 20);
        assertThatThrownBy(() -> store.saveTokens(huge, new TokenSet(ISS, "at", "Bearer", null, null, null)))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("too long");
    }

    @Test
    void aLockWaitReportsTheLockTimeout() throws Exception {
        JdbcTokenStore store = tokens(db.dataSource, Duration.ofMillis(400));
        TokenSet t = new TokenSet(ISS, "at-LOCK", "Bearer", null, null, null);
        store.saveTokens(RES + "/lock", t);
        try (Connection holder = db.connect()) {
            holder.setAutoCommit(false);
            try (PreparedStatement ps = holder.prepareStatement(
                    "select 1 from mcp_oauth_tokens where resource = ? for update")) {
                ps.setString(1, RES + "/lock");
                ps.executeQuery().close();
            }
            assertThatThrownBy(() -> store.removeTokens(RES + "/lock", t)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("a lock was not granted in time (SQLState 55P03)");
            holder.rollback();
        }
    }

    @Test
    void theCauseOfAFailureCarriesNoRowValues() throws Exception {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("alter table mcp_tasks add constraint bt41_no_evil check (tool_name <> 'evil')");
        }
        try {
            TaskStore s = JdbcTaskStore.create(db.dataSource);
            TaskRecord r = new TaskRecord("t-evil", "https://evil.example.com/mcp", Era.MODERN, "evil",
                    Instant.now(), null, TaskStatus.WORKING, null, null, null, Map.of(),
                    Map.of("content", List.of(Map.of("type", "text", "text", "SECRET-RESULT"))), null);
            assertThatThrownBy(() -> s.put(r)).isInstanceOf(UncheckedIOException.class)
                    .satisfies(e -> {
                        StringBuilder chain = new StringBuilder();
                        for (Throwable t = e; t != null; t = t.getCause()) {
                            chain.append(t).append('\n');
                            for (Throwable sup : t.getSuppressed()) {
                                chain.append(sup).append('\n');
                            }
                        }
                        assertThat(chain.toString()).doesNotContain("SECRET").doesNotContain("Failing row")
                                .contains("SQLState 23514");
                    });
        } finally {
            try (Connection c = db.connect(); Statement st = c.createStatement()) {
                st.execute("alter table mcp_tasks drop constraint bt41_no_evil");
            }
        }
    }

    @Test
    void keysThatAreNotValidUnicodeAndBlankHoldersAreRefused() {
        JdbcTokenStore store = tokens(db.dataSource, Duration.ofSeconds(10));
        for (String bad : new String[] {"\uD800", "\uDBFF", "a\u0000b", "x\uDC00"}) {
            assertThatThrownBy(() -> store.forPrincipal(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("principal");
            assertThatThrownBy(() -> store.tokens(bad, ISS)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("resource");
            assertThatThrownBy(() -> store.registration(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("issuer");
            assertThatThrownBy(() -> JdbcTaskStore.create(db.dataSource).list(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("server key");
        }
        assertThat(store.forPrincipal("?").tokens(RES, ISS)).isEmpty();
        assertThat(store.forPrincipal("\uD83D\uDE00")).isNotNull(); // a pair is fine
        assertThatThrownBy(() -> store.leaseRefresh(RES, ISS, " ", Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holder must not be blank");
        assertThatThrownBy(() -> JdbcTaskStore.create(db.dataSource).claim("s", "t", "", Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("owner must not be blank");
    }

    @Test
    void aReleasedRefreshLeaseIsReleasedOnceAndNoLongerWrites() {
        TokenStore store = tokens(db.dataSource, Duration.ofSeconds(10));
        String res = RES + "/release";
        TokenSet held = new TokenSet(ISS, "at-1", "Bearer", "rt-1", null, null);
        store.saveTokens(res, held);
        RefreshLease l = store.leaseRefresh(res, ISS, "h1", Duration.ofMinutes(1)).orElseThrow();
        assertThat(store.releaseRefresh(l)).isTrue();
        assertThat(store.releaseRefresh(l)).as("a second release").isFalse();
        assertThat(store.replaceTokens(l, held, new TokenSet(ISS, "at-2", "Bearer", "rt-2", null, null)))
                .as("a released lease no longer writes").isFalse();
        assertThat(store.tokens(res, ISS)).contains(held);
        RefreshLease again = store.leaseRefresh(res, ISS, "h1", Duration.ofMinutes(1)).orElseThrow();
        assertThat(store.replaceTokens(again, held, new TokenSet(ISS, "at-2", "Bearer", "rt-2", null, null)))
                .isTrue();
    }
}
