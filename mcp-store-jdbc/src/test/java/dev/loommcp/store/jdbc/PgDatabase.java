package dev.loommcp.store.jdbc;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.UUID;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;

/**
 * The private PostgreSQL of the test run: scripts/pg.sh starts it (scripts/test.sh does, for the whole run) and
 * exports its JDBC URL as {@code LOOMMCP_PG_URL}. Without it the store tests fail when {@code CI} is set (CI must
 * run them: .ci/run sets it) and are skipped with a message naming the command otherwise. Each test class works in
 * its own schema ({@code currentSchema}), dropped at the end, so runs never see each other's rows.
 */
final class PgDatabase implements AutoCloseable {

    static final String URL_VARIABLE = "LOOMMCP_PG_URL";

    final String url;
    final String schema;
    final DataSource dataSource;

    private PgDatabase(String url, String schema) {
        this.url = url;
        this.schema = schema;
        String withSchema = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        this.dataSource = new UrlDataSource(withSchema);
    }

    /** A fresh schema with the store tables (migrated), or the test is skipped/failed as described above. */
    static PgDatabase open() throws SQLException {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            String why = URL_VARIABLE + " is not set: start a private PostgreSQL with "
                    + "'eval \"$(scripts/pg.sh start)\"; export " + URL_VARIABLE + "' (scripts/test.sh does it)";
            String ci = System.getenv("CI");
            if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) {
                fail("CI is set and " + why);
            }
            Assumptions.abort(why);
        }
        String schema = "t_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("create schema " + schema);
        }
        PgDatabase db = new PgDatabase(url, schema);
        JdbcSchema.migrate(db.dataSource);
        return db;
    }

    /** A connection outside the stores (to hold locks, read raw rows). */
    Connection connect() throws SQLException {
        return dataSource.getConnection();
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("drop schema if exists " + schema + " cascade");
        }
    }

    /** A DataSource on DriverManager: a new connection each time (the tests' stand-in for a pool). */
    record UrlDataSource(String url) implements DataSource {
        @Override
        public Connection getConnection() throws SQLException {
            return DriverManager.getConnection(url);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
