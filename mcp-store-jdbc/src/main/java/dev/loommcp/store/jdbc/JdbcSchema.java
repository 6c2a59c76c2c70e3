package dev.loommcp.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The tables of {@link JdbcTokenStore} and {@link JdbcTaskStore} and their migration: {@link #script()} is the SQL
 * of the current version (PostgreSQL 12 or newer), also in the jar as {@value #RESOURCE} for a DBA to apply by hand;
 * {@link #migrate(DataSource)} applies it. Every statement is idempotent ({@code create ... if not exists}), so
 * replicas starting together may all migrate. A database whose {@code mcp_schema_version} names a version newer than
 * {@link #VERSION} was migrated by a newer loom-mcp: {@link #migrate} and the stores (on their first operation)
 * refuse it with an {@link IllegalStateException} saying so, rather than failing each statement on a column they do
 * not know. Stateless; thread-safe.
 */
public final class JdbcSchema {

    /** The schema version {@link #script()} creates (the row of {@code mcp_schema_version} it inserts). */
    public static final int VERSION = 1;
    /** Where the script is in the jar (module {@code dev.loommcp.store.jdbc}). */
    public static final String RESOURCE = "/dev/loommcp/store/jdbc/schema-v1.sql";

    private JdbcSchema() {
    }

    /**
     * Returns the SQL script of schema version {@value #VERSION}.
     *
     * @return the script
     */
    public static String script() {
        try (InputStream in = JdbcSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the schema script " + RESOURCE + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the schema script " + RESOURCE, e);
        }
    }

    /**
     * Applies {@link #script()} in one transaction (creating what is missing; nothing else changes).
     *
     * @param dataSource the application's data source; its user needs the right to create tables
     * @throws UncheckedIOException  naming the SQLState, if the database refuses
     * @throws IllegalStateException if the database has a newer schema version than {@link #VERSION} (nothing is
     *                               changed)
     */
    public static void migrate(DataSource dataSource) {
        Objects.requireNonNull(dataSource, "dataSource");
        List<String> statements = statements(script());
        new Sql(dataSource, Duration.ofMinutes(1), "the JDBC schema migration", false).tx("apply the schema", c -> {
            try (Statement st = c.createStatement()) {
                // replicas migrating together: one at a time (create ... if not exists races on the catalog)
                st.execute("select pg_advisory_xact_lock(7236001)");
                checkNotNewer(c, "the JDBC schema migration");
                for (String s : statements) {
                    st.execute(s);
                }
            }
            return null;
        });
    }

    /**
     * Refuses a schema newer than this version's (a row of {@code mcp_schema_version} above {@link #VERSION}); a
     * database without the table passes (the migration creates it; a store's statement then names the missing table).
     *
     * @throws IllegalStateException naming the versions
     */
    static void checkNotNewer(Connection c, String who) throws SQLException {
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("select to_regclass('mcp_schema_version') is not null")) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return;
                }
            }
            try (ResultSet rs = st.executeQuery("select max(version) from mcp_schema_version")) {
                int v = rs.next() ? rs.getInt(1) : 0;
                if (v > VERSION) {
                    throw new IllegalStateException(who + " refuses the database: its schema is version " + v
                            + ", written by a newer loom-mcp (this one knows version " + VERSION + "); upgrade"
                            + " this replica, or apply this version's schema to another database");
                }
            }
        }
    }

    /** The statements of a script: split at semicolons ending a line, comments dropped. */
    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : script.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("--")) {
                continue;
            }
            cur.append(line).append('\n');
            if (l.endsWith(";")) {
                String s = cur.toString().strip();
                out.add(s.substring(0, s.length() - 1));
                cur.setLength(0);
            }
        }
        return out;
    }
}
