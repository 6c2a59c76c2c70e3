package dev.loommcp.transport.stdio;

import dev.loommcp.McpClosedException;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The processes of one {@link StdioTransport}, one at a time: the current {@link StdioConnection}; its replacement
 * by {@link StdioTransport#reopen} (end the running child with the bounded shutdown, wait until its tree is gone,
 * then launch and open a fresh one of the same launch configuration); and {@link StdioTransport#close()}'s
 * coordination with it: a close before or during a reopen fails that reopen with {@link McpClosedException}, and a
 * child launched after the close is ended by it. It also keeps what outlives one process: the labelled stderr tail
 * of the processes a reopen replaced, the line the stderr listener gets between two processes' lines, the sink (held
 * strongly here, since a connection holds it only weakly) and the cleaner safety net of the current connection,
 * registered for the transport.
 *
 * <p>Thread-safe. The {@link #swap} lock orders a reopen's swap of the connection with close; it is never held while
 * a process is ended or waited for, nor while the stderr listener (user code) runs.
 */
final class ProcessSuccession {

    private final LaunchConfig config;
    /** The running connection; replaced once by {@link #reopen} (under {@link #swap}). */
    private volatile StdioConnection connection;
    /** Orders {@link #reopen}'s swap of the connection with {@link #close}. Never held while waiting. */
    private final ReentrantLock swap = new ReentrantLock();
    /** Set by {@link #close} under {@link #swap}. */
    private boolean closed;
    /** How many processes this transport started before the current one (0, or 1 after a reopen). */
    private volatile int earlierProcesses;
    /** The labelled stderr tail of the process {@link #reopen} replaced, or {@code null}. */
    private volatile String earlierTail;
    /** Keeps the sink reachable for as long as the transport is: the connection holds it only weakly. */
    private volatile TransportSink sink;
    private volatile Cleaner.Cleanable cleanable;

    /**
     * Creates the succession with its first connection, not yet opened.
     *
     * @param config the launch configuration of every process
     */
    ProcessSuccession(LaunchConfig config) {
        this.config = config;
        this.connection = new StdioConnection(config);
    }

    /** Returns the current connection (the one of the latest process). */
    StdioConnection current() {
        return connection;
    }

    /**
     * Opens the first connection and registers the cleaner safety net for {@code owner}.
     *
     * @param owner   the transport, whose unreachability ends the process tree
     * @param context the sink and the client's threads
     * @see StdioTransport#open
     */
    void open(Object owner, TransportContext context) {
        TransportSink sink = Objects.requireNonNull(context.sink(), "sink");
        this.sink = sink;
        connection.open(context);
        cleanable = Reaper.watch(owner, connection);
    }

    /**
     * Ends the running child and waits until its tree is gone, then launches and opens a fresh one with
     * {@code context}; the two never run at the same time.
     *
     * @param owner   the transport, whose unreachability ends the new process tree
     * @param context the sink and deadline for the new child
     * @throws McpClosedException    if {@link #close} was called before or while this ran
     * @throws IllegalStateException if the first connection was never opened
     * @throws InterruptedException  if interrupted while the first child was ended (no new one is started)
     * @see StdioTransport#reopen
     */
    void reopen(Object owner, TransportContext context) throws InterruptedException {
        TransportSink newSink = Objects.requireNonNull(context.sink(), "sink");
        StdioConnection old;
        swap.lock();
        try {
            if (closed) {
                throw new McpClosedException("the stdio transport for " + config.programName() + " is closed",
                        null);
            }
            old = connection;
        } finally {
            swap.unlock();
        }
        if (old.process() == null) {
            throw new IllegalStateException("the stdio transport for " + config.programName()
                    + " cannot reopen: it was never opened");
        }
        old.close(); // the bounded shutdown: returns once the tree is gone (or was killed and waited for)
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while the first process of " + config.programName()
                    + " was ended; no second one was started");
        }
        Cleaner.Cleanable previous = cleanable;
        if (previous != null) {
            previous.clean(); // the old connection is shut down: its cleaner action does nothing
        }
        StdioConnection fresh = new StdioConnection(config);
        String marker;
        swap.lock();
        try {
            if (closed) {
                throw new McpClosedException("the stdio transport for " + config.programName() + " is closed",
                        null);
            }
            int n = earlierProcesses + 1;
            String exit = old.exitCode().isPresent() ? " exit code " + old.exitCode().getAsInt() : "";
            String label = "[process " + n + ", pid " + old.process().pid() + "]" + (exit.isEmpty() ? ""
                    : " ended with" + exit);
            String tail = old.stderrTail();
            String before = earlierTail;
            earlierTail = (before == null ? "" : before + "\n") + label + (tail.isEmpty() ? "" : "\n" + tail);
            earlierProcesses = n;
            connection = fresh;
            marker = label + "; the lines of process " + (n + 1) + " follow";
        } finally {
            swap.unlock();
        }
        tellListener(marker); // the first process's drain is over: the marker sits between the two processes' lines
        this.sink = newSink;
        fresh.open(context); // a close() since the swap ends it (the open then throws McpClosedException)
        cleanable = Reaper.watch(owner, fresh);
    }

    /** Hands one line to the stderr listener, containing whatever it throws (as the stderr drain does). */
    private void tellListener(String line) {
        Consumer<String> listener = config.stderrListener();
        if (listener == null) {
            return;
        }
        try {
            listener.accept(line);
        } catch (Throwable e) {
            System.getLogger("dev.loommcp.transport.stdio").log(System.Logger.Level.WARNING, () -> "the stderr "
                    + "listener of " + config.programName() + " threw " + e.getClass().getName());
        }
    }

    /**
     * Marks the succession closed (a {@link #reopen} after this fails), closes the current connection with the
     * configured graces ({@code grace == null}) or the shorter ones, then drops the cleaner's safety net: the process
     * tree is ended. Never throws.
     *
     * @param grace the most to wait for each graceful step, or {@code null} for the configured graces
     * @see StdioTransport#close(Duration)
     */
    void close(Duration grace) {
        StdioConnection c0;
        swap.lock();
        try {
            closed = true;
            c0 = connection;
        } finally {
            swap.unlock();
        }
        if (grace == null) {
            c0.close();
        } else {
            c0.close(grace);
        }
        Cleaner.Cleanable c = cleanable;
        if (c != null) {
            c.clean();
        }
    }

    /**
     * Returns the stderr tail of every process: the current one's alone before any reopen; after one, each process's
     * lines under a label line {@code [process N, pid P]} (a replaced one's label also names its exit code), the
     * current process last.
     *
     * @return the tail, empty before the child wrote anything
     * @see StdioTransport#stderrTail()
     */
    String stderrTail() {
        StdioConnection c;
        String before;
        int n;
        swap.lock();
        try {
            c = connection;
            before = earlierTail;
            n = earlierProcesses + 1;
        } finally {
            swap.unlock();
        }
        String tail = c.stderrTail();
        if (before == null) {
            return tail;
        }
        Process p = c.process();
        return before + "\n[process " + n + (p == null ? "" : ", pid " + p.pid()) + "]"
                + (tail.isEmpty() ? "" : "\n" + tail);
    }
}
