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
 * {@code statement_timeout} and a shorter {@code lock_timeout} (three quarters of it, so that a lock wait reports
 * 55P03, not 57014), set with {@code SET LOCAL} so that they end with the transaction and never leak into the pool.
 * The client bounds each wait for the database too ({@link Connection#setNetworkTimeout}: the statement timeout plus
 * {@link #NETWORK_GRACE_MILLIS}), so a database that stops answering (a stalled backend, a lost network) fails the
 * operation instead of hanging it; the connection's own network timeout is restored before it goes back to the pool.
 * Getting a connection is bounded by the pool ({@code connectionTimeout}) or the driver ({@code loginTimeout},
 * {@code connectTimeout}), not here. A store's first operation checks the schema version ({@link JdbcSchema#VERSION}):
 * a newer schema is refused. A failure is an {@link UncheckedIOException} naming the store, the operation and the
 * SQLState, never a value; its cause is a sanitized {@link SQLException} with the SQLState and the driver's exception
 * class only (the driver's message and detail may quote row values). Thread-safe.
 */
final class Sql {

    /** A unit of work inside a transaction. */
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /** The longest statement timeout: PostgreSQL's settings are int milliseconds (about 24.8 days). */
    static final long MAX_TIMEOUT_MILLIS = Integer.MAX_VALUE - 60_000L;
    /** How much longer than the statement timeout the client waits for an answer before it gives the connection up. */
    static final long NETWORK_GRACE_MILLIS = 5_000;

    private final DataSource dataSource;
    private final long timeoutMillis;
    private final String store;
    private final boolean checkSchema;
    private volatile boolean schemaChecked;

    Sql(DataSource dataSource, Duration timeout, String store) {
        this(dataSource, timeout, store, true);
    }

    /** With {@code checkSchema} false for the migration itself (it checks under its lock). */
    Sql(DataSource dataSource, Duration timeout, String store, boolean checkSchema) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.timeoutMillis = checkTimeout(timeout).toMillis();
        this.store = store;
        this.checkSchema = checkSchema;
    }

    /**
     * Checks a statement timeout.
     *
     * @return the timeout
     * @throws IllegalArgumentException if it is shorter than 1 ms or longer than about 24.8 days
     */
    static Duration checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("the statement timeout must be at least 1 ms, was " + timeout);
        }
        if (timeout.compareTo(Duration.ofMillis(MAX_TIMEOUT_MILLIS)) > 0) {
            throw new IllegalArgumentException("the statement timeout must be at most " + MAX_TIMEOUT_MILLIS
                    + " ms (PostgreSQL's limit, about 24.8 days), was " + timeout);
        }
        return timeout;
    }

    /**
     * Runs {@code work} in one transaction, committed when it returns, rolled back when it throws.
     *
     * @param op what the operation does, for the message of a failure ("read the tokens")
     * @throws UncheckedIOException if the database fails (timeouts: SQLState 57014 statement, 55P03 lock)
     */
    <T> T tx(String op, Work<T> work) {
        try (Connection c = connection()) {
            boolean auto = c.getAutoCommit();
            int network = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, timeoutMillis + NETWORK_GRACE_MILLIS));
            c.setAutoCommit(false);
            try {
                try (Statement st = c.createStatement()) {
                    st.execute("set local statement_timeout = " + timeoutMillis);
                    st.execute("set local lock_timeout = " + Math.max(1, timeoutMillis * 3 / 4));
                }
                if (checkSchema && !schemaChecked) {
                    JdbcSchema.checkNotNewer(c, store);
                    schemaChecked = true;
                }
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(c);
                throw e;
            } finally {
                restore(c, auto, network);
            }
        } catch (SQLException e) {
            String msg = store + " could not " + op + ": " + describe(e);
            throw new UncheckedIOException(msg, new IOException(msg, sanitized(e)));
        }
    }

    private Connection connection() throws SQLException {
        Connection c = dataSource.getConnection();
        if (c == null) {
            throw new NoConnection();
        }
        return c;
    }

    /** The data source's {@code getConnection()} returned {@code null}. */
    private static final class NoConnection extends SQLException {
        private static final long serialVersionUID = 1L;

        NoConnection() {
            super("the data source gave no connection (null)");
        }
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            // the connection is broken: the first failure is the one reported
        }
    }

    private static void restore(Connection c, boolean auto, int network) {
        try {
            c.setAutoCommit(auto);
            c.setNetworkTimeout(Runnable::run, network);
        } catch (SQLException e) {
            // the connection is broken; the pool finds out on its next check
        }
    }

    /**
     * The failure without the driver's message, detail or causes (they may quote a row's values: "Failing row
     * contains ..."): its SQLState, vendor code, class and stack.
     */
    static SQLException sanitized(SQLException e) {
        SQLException clean = new SQLException(e.getClass().getName() + " (SQLState " + e.getSQLState() + ")",
                e.getSQLState(), e.getErrorCode());
        clean.setStackTrace(e.getStackTrace());
        return clean;
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
        if (length.compareTo(MAX_LEASE) > 0) {
            throw new IllegalArgumentException("the lease length must be at most " + MAX_LEASE + ", was " + length);
        }
        return Math.max(1, length.toMillis());
    }

    /** The longest lease: a lease is renewed while its holder lives, so a year is far beyond any use. */
    static final Duration MAX_LEASE = Duration.ofDays(366);

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
        if (e instanceof NoConnection) {
            return e.getMessage();
        }
        if (interrupted(e)) {
            return "interrupted while waiting for the database (" + (state == null ? "no SQLState" : "SQLState "
                    + state) + ")";
        }
        if (timedOut(e)) {
            return "the database did not answer within the network timeout (statement timeout + "
                    + NETWORK_GRACE_MILLIS + " ms; SQLState " + state + ")";
        }
        if (state == null) {
            // a pool's own failure (exhausted, closed) or a driver's without a state: its class says which
            return "the connection could not be had or used (" + e.getClass().getName() + ", no SQLState)";
        }
        String meaning = switch (state) {
            case "57014" -> "the statement timed out";
            case "55P03" -> "a lock was not granted in time";
            case "40001", "40P01" -> "a serialization failure or deadlock";
            case "42P01" -> "a table is missing (apply the schema: JdbcSchema.migrate)";
            case "08000", "08001", "08003", "08004", "08006", "08007" -> "the database connection failed";
            case "57P01", "57P02", "57P03" -> "the database is shutting down or starting";
            case "54000", "54001", "22001" -> "a value is too long for the database (an id, key or text too large)";
            case "22021", "22P05" -> "a value has characters the database cannot store (NUL or invalid Unicode)";
            default -> "a database error";
        };
        return meaning + " (SQLState " + state + ")";
    }

    /** Whether the failure comes from an interrupt of the waiting thread (the interrupt status is left as it is). */
    private static boolean interrupted(SQLException e) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
                    && !(t instanceof java.net.SocketTimeoutException)
                    || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }

    /** Whether the client gave up waiting for an answer ({@link Connection#setNetworkTimeout}). */
    private static boolean timedOut(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Checks a key or id before it reaches the database: not {@code null}, and valid Unicode without NUL (PostgreSQL
     * refuses NUL in text and stores an unpaired surrogate as {@code ?}, so two different keys would be one row).
     *
     * @return the value
     * @throws IllegalArgumentException naming {@code what} and the position, never the value
     */
    static String key(String value, String what) {
        Objects.requireNonNull(value, what);
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == 0) {
                throw new IllegalArgumentException(what + " has a NUL character at index " + i);
            }
            if (Character.isHighSurrogate(ch) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(ch)) {
                throw new IllegalArgumentException(what + " is not valid Unicode (an unpaired surrogate at index "
                        + i + ")");
            }
        }
        return value;
    }

    /** {@link #key} for an id that must also not be blank (a lease holder, a task owner). */
    static String id(String value, String what) {
        if (key(value, what).isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return value;
    }
}
