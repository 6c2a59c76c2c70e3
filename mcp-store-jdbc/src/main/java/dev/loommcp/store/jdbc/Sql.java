package dev.loommcp.store.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Short transactions on the application's {@link DataSource}: one connection per operation, returned at once (a
 * pool's connection never waits on anything but the database), every statement under PostgreSQL's
 * {@code statement_timeout} and {@code lock_timeout}, set with {@code SET LOCAL} so that they end with the
 * transaction and never leak into the pool. A failure is an {@link UncheckedIOException} naming the store, the
 * operation and the SQLState, never a value. Thread-safe.
 */
final class Sql {

    /** A unit of work inside a transaction. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final DataSource dataSource;
    private final long timeoutMillis;
    private final String store;

    Sql(DataSource dataSource, Duration timeout, String store) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        this.store = store;
    }

    /**
     * Runs {@code work} in one transaction, committed when it returns, rolled back when it throws.
     *
     * @param op what the operation does, for the message of a failure ("read the tokens")
     * @throws UncheckedIOException if the database fails (timeouts: SQLState 57014 statement, 55P03 lock)
     */
    <T> T tx(String op, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                try (Statement st = c.createStatement()) {
                    st.execute("set local statement_timeout = " + timeoutMillis);
                    st.execute("set local lock_timeout = " + timeoutMillis);
                }
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(c, e);
                throw e;
            } finally {
                restore(c, auto);
            }
        } catch (SQLException e) {
            String msg = store + " could not " + op + ": " + describe(e);
            throw new UncheckedIOException(msg, new IOException(msg, e));
        }
    }

    private static void rollback(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private static void restore(Connection c, boolean auto) {
        try {
            c.setAutoCommit(auto);
        } catch (SQLException e) {
            // the connection is broken; the pool finds out on its next check
        }
    }

    /**
     * A lease length in milliseconds for SQL ({@code now() + ? * interval '1 millisecond'}).
     *
     * @throws IllegalArgumentException if it is not positive
     */
    static long leaseMillis(Duration length) {
        Objects.requireNonNull(length, "length");
        if (length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("the lease length must be positive, was " + length);
        }
        return Math.max(1, length.toMillis());
    }

    /**
     * A key or id for a log line or message: quoted, control characters and unpaired surrogates escaped, at most
     * 64 characters (an id is not a secret, but it may be long or odd).
     */
    static String shown(@Nullable String id) {
        if (id == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < id.length() && i < 64; i++) {
            char ch = id.charAt(i);
            boolean lone = Character.isSurrogate(ch) && !(Character.isHighSurrogate(ch) && i + 1 < id.length()
                    && Character.isLowSurrogate(id.charAt(i + 1)) || Character.isLowSurrogate(ch) && i > 0
                    && Character.isHighSurrogate(id.charAt(i - 1)));
            if (ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\' || lone) {
                b.append(String.format("\\u%04x", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.append(id.length() > 64 ? "\"..." : "\"").toString();
    }

    /** The SQLState and what it means, never the driver's message (it may quote a value). */
    static String describe(SQLException e) {
        String state = e.getSQLState();
        String meaning = state == null ? "no SQLState" : switch (state) {
            case "57014" -> "the statement timed out";
            case "55P03" -> "a lock was not granted in time";
            case "40001", "40P01" -> "a serialization failure or deadlock";
            case "42P01" -> "a table is missing (apply the schema: JdbcSchema.migrate)";
            case "08000", "08001", "08003", "08004", "08006", "08007" -> "the database connection failed";
            case "57P01", "57P02", "57P03" -> "the database is shutting down or starting";
            default -> "a database error";
        };
        return meaning + " (SQLState " + state + ")";
    }
}
