package dev.loommcp.it;

import static org.junit.jupiter.api.Assertions.fail;

import dev.loommcp.store.jdbc.JdbcSchema;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The run's private PostgreSQL for mcp-it's fleet tests (scripts/pg.sh; scripts/test.sh exports
 * {@code LOOMMCP_PG_URL} and {@code LOOMMCP_PG_DIR}): a fresh schema per test with the store tables, dropped at the
 * end. Without the URL a test fails when {@code CI} is set and is skipped otherwise, as mcp-store-jdbc's tests.
 */
final class FleetDatabase implements AutoCloseable {

    private final String baseUrl;
    private final String schema;
    /** The JDBC URL of the schema (what the child JVMs get). */
    final String url;

    private FleetDatabase(String baseUrl, String schema) {
        this.baseUrl = baseUrl;
        this.schema = schema;
        this.url = baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    static FleetDatabase open() throws SQLException {
        String base = System.getenv("LOOMMCP_PG_URL");
        if (base == null || base.isBlank()) {
            String why = "LOOMMCP_PG_URL is not set: run under 'scripts/pg.sh run ...' (scripts/test.sh starts one)";
            String ci = System.getenv("CI");
            if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) {
                fail("CI is set and " + why);
            }
            Assumptions.abort(why);
        }
        String schema = "fleet_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(base); Statement st = c.createStatement()) {
            st.execute("create schema " + schema);
        }
        FleetDatabase db = new FleetDatabase(base, schema);
        JdbcSchema.migrate(pool(db.url, 2));
        return db;
    }

    /**
     * A data source on {@code url} that lends at most {@code size} connections at once (a stand-in for the bounded
     * pool docs/fleet.md advises: a new connection per borrow, the borrower waits up to 30 s for a free one).
     */
    static DataSource pool(String url, int size) {
        PGSimpleDataSource pg = new PGSimpleDataSource();
        pg.setURL(url);
        pg.setConnectTimeout(5);
        Semaphore free = new Semaphore(size);
        return (DataSource) Proxy.newProxyInstance(FleetDatabase.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        return invoke(pg, method, args);
                    }
                    if (!free.tryAcquire(30, TimeUnit.SECONDS)) {
                        throw new SQLException("no free connection in the test pool within 30 s", "08001");
                    }
                    Connection c;
                    try {
                        c = (Connection) invoke(pg, method, args);
                    } catch (Throwable e) {
                        free.release();
                        throw e;
                    }
                    AtomicBoolean closed = new AtomicBoolean();
                    return Proxy.newProxyInstance(FleetDatabase.class.getClassLoader(),
                            new Class<?>[] {Connection.class}, (p, m, a) -> {
                                if (m.getName().equals("close") && closed.compareAndSet(false, true)) {
                                    free.release();
                                }
                                return invoke(c, m, a);
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** One number from the schema (a count). */
    long count(String sql, Object... params) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The rows of a query as text, one line per row ({@code column=value}, comma-separated), for failure messages. */
    String rows(String sql, Object... params) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection(url); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int i = 1; i <= columns; i++) {
                        out.append(i == 1 ? "" : ", ").append(rs.getMetaData().getColumnName(i)).append('=')
                                .append(rs.getString(i));
                    }
                    out.append('\n');
                }
            }
        }
        return out.toString();
    }

    /**
     * Restarts the server ({@code scripts/pg.sh restart $LOOMMCP_PG_DIR}: a fast shutdown, open connections end,
     * then a start on the same port). Not {@code immediate}: the test server runs with {@code synchronous_commit}
     * and {@code fsync} off, so a crash would lose commits the clients were told of, which no fencing survives (a
     * production database keeps them on). Fails the test when the directory is not known.
     */
    void restart() throws Exception {
        String dir = System.getenv("LOOMMCP_PG_DIR");
        if (dir == null || dir.isBlank()) {
            fail("LOOMMCP_PG_DIR is not set: the database restart test needs the server's directory (scripts/test.sh"
                    + " and scripts/pg.sh run export it)");
        }
        Path script = repoRoot().resolve("scripts/pg.sh");
        Process p = new ProcessBuilder(script.toString(), "restart", dir, "fast").inheritIO().start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("pg.sh restart did not end within 60 s");
        }
        if (p.exitValue() != 0) {
            fail("pg.sh restart failed with exit code " + p.exitValue());
        }
    }

    private static Path repoRoot() {
        String root = System.getProperty("loommcp.root.dir"); // set by the build
        Path p = root != null ? Path.of(root) : Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/pg.sh"))) {
            p = p.getParent();
        }
        if (p == null) {
            fail("scripts/pg.sh not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = DriverManager.getConnection(baseUrl); Statement st = c.createStatement()) {
            st.execute("drop schema if exists " + schema + " cascade");
        }
    }
}
