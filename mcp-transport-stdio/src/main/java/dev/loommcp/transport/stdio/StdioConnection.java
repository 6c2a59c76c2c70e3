package dev.loommcp.transport.stdio;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import dev.loommcp.spi.TransportThreads;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The running side of a {@link StdioTransport}: the child process, its four threads (stdout reader, stderr drainer,
 * stdin writer, exit watcher) and the shutdown sequence. This class owns the lifecycle (open, send, failure, close,
 * the exit watcher and the shutdown); the work of each pipe lives in its own part: {@link StdinWriter} (the bounded
 * queue to stdin), {@link StdoutReader} (line framing and decoding of stdout) and {@link StderrDrain} (stderr lines
 * into the {@link StderrRing} and the listener). The parts report back through {@link #fail}, {@link #waitThenFail},
 * {@link #failed()} and {@link #sink()}.
 *
 * <p>The three threads that block in native pipe I/O (reader, drainer, writer) are platform daemon threads with a
 * small stack ({@link #PIPE_THREAD_STACK}): on a virtual thread a blocked pipe read or write holds a carrier of the
 * virtual-thread scheduler, and some 100 open servers would leave no carrier for any virtual thread in the JVM. The
 * exit watcher and the shutdown are virtual threads that wait on {@link Process#onExit()} (completed by the JDK's
 * own "process reaper" thread, which exists for every child anyway) and never call {@link Process#waitFor}, which is
 * monitor-locked (pinning) on JDK 21.
 *
 * <p>It never refers to the {@link StdioTransport} object, and holds the sink only weakly (the transport holds it
 * strongly), so a transport that its owner dropped without closing becomes unreachable and its {@link Reaper}
 * cleaner can end the process tree.
 */
final class StdioConnection {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.stdio");

    /**
     * Stack size requested for the pipe threads: they only copy bytes, decode JSON-RPC (Jackson parses iteratively)
     * and call the sink or the stderr listener.
     */
    static final long PIPE_THREAD_STACK = 256 * 1024;
    /**
     * Test seam: when set, called with the purpose of each pipe thread about to start; an {@link Error} it returns is
     * thrown instead of starting the thread, as the JVM throws {@code OutOfMemoryError} when the OS refuses a thread.
     */
    static volatile java.util.function.Function<String, Error> pipeThreadFault;
    /** How long exit reporting waits for the pipes to deliver what the child wrote before it died. */
    private static final long DRAIN_AFTER_EXIT_MILLIS = 500;
    /** How long the shutdown waits for the transport's own threads after the process tree is gone. */
    private static final long JOIN_MILLIS = 1000;

    private final LaunchConfig config;
    private final StderrRing ring;
    private final StdinWriter writer;
    private final StdoutReader reader;
    private final StderrDrain stderr;

    private final ReentrantLock lifecycle = new ReentrantLock();
    private final AtomicReference<McpTransportException> failure = new AtomicReference<>();
    private final AtomicBoolean shutdownStarted = new AtomicBoolean();
    private final CountDownLatch shutdownDone = new CountDownLatch(1);

    private volatile boolean userClosed;
    /** The most the shutdown waits after closing stdin and after SIGTERM ({@link #close(Duration)}), in nanos. */
    private volatile long graceCapNanos = Long.MAX_VALUE;
    /** The failure close() recorded, to tell it from a failure that came before the close. */
    private volatile McpTransportException closeMarker;
    private volatile boolean opened;
    private volatile WeakReference<TransportSink> sinkRef = new WeakReference<>(null);
    private volatile Process process;
    private volatile ProcessTree tree;
    private volatile Integer exitCode;
    private final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The end of each pipe thread (platform threads are awaited through these, never joined). */
    private final Map<Thread, CountDownLatch> pipeThreadEnds = new ConcurrentHashMap<>();
    private volatile Thread writerThread;
    private volatile Thread readerThread;
    private volatile Thread stderrThread;
    /** The names of the child's stdout and stderr pipes ({@link PipeWake#pipeOf}), or {@code null}. */
    private volatile String stdoutPipe;
    private volatile String stderrPipe;
    /** Set when the shutdown gives up reading pipes that a process outside the tree holds open. */
    private volatile boolean pipesAbandoned;
    private volatile Thread watcherThread;
    /** The client's threads and framing, from the context given to {@link #open}. */
    private volatile TransportThreads threadSource = TransportThreads.standard();
    private volatile JsonRpcFraming framing = JsonRpcFraming.standard();

    StdioConnection(LaunchConfig config) {
        this.config = config;
        this.ring = new StderrRing(config.stderrBufferBytes());
        this.writer = new StdinWriter(this, config);
        this.reader = new StdoutReader(this, config);
        this.stderr = new StderrDrain(config, ring, this::pipesAbandoned);
    }

    /** The threads this connection was opened with (the core's until then). */
    TransportThreads threads() {
        return threadSource;
    }

    /** The framing this connection was opened with (the core's until then). */
    JsonRpcFraming framing() {
        return framing;
    }

    String programName() {
        return config.programName();
    }

    boolean shutdownStarted() {
        return shutdownStarted.get();
    }

    String stderrTail() {
        return ring.tail();
    }

    long stderrBufferedBytes() {
        return ring.sizeBytes();
    }

    long stderrHeapBytes() {
        return ring.heapBytes();
    }

    long skippedLines() {
        return reader.skippedLines();
    }

    /** The stdin writer, for the stdout reader's proof of what the child read. */
    StdinWriter writer() {
        return writer;
    }

    OptionalInt exitCode() {
        Integer c = exitCode;
        return c == null ? OptionalInt.empty() : OptionalInt.of(c);
    }

    Process process() {
        return process;
    }

    boolean grouped() {
        ProcessTree t = tree;
        return t != null && t.grouped();
    }

    // ------------------------------------------------------------------------------------------------ open

    void open(TransportContext context) {
        TransportSink sink = context.sink();
        lifecycle.lock();
        try {
            if (userClosed) {
                throw closedException();
            }
            if (shutdownStarted.get()) {
                throw new McpTransportException("the stdio transport for " + config.programName()
                        + " is closed");
            }
            if (opened) {
                throw new IllegalStateException("the stdio transport for " + config.programName()
                        + " was already opened; a transport is used once");
            }
            opened = true;
            threadSource = context.threads();
            framing = context.framing();
            sinkRef = new WeakReference<>(sink);
            ProcessBuilder pb = new ProcessBuilder(config.processCommand());
            if (config.workingDirectory() != null) {
                pb.directory(config.workingDirectory().toFile());
            }
            pb.environment().clear();
            pb.environment().putAll(config.environment());
            pb.redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.PIPE)
                    .redirectError(ProcessBuilder.Redirect.PIPE);
            Process p;
            try {
                p = pb.start();
            } catch (IOException | RuntimeException e) {
                failure.compareAndSet(null, new McpTransportException("the stdio transport for "
                        + config.programName() + " failed to start", null));
                shutdownStarted.set(true);
                shutdownDone.countDown();
                throw new McpTransportException("cannot start " + config.programName() + " ("
                        + config.executable() + "): " + e.getMessage(), e);
            }
            process = p;
            tree = new ProcessTree(p, config.grouped(), config.ownSession(), config.killCommand());
            LOG.log(Level.DEBUG, () -> "started " + config.programName() + " (" + config.executable() + ", "
                    + config.args().size() + " arguments) as pid " + p.pid()
                    + (config.grouped() ? " in its own process group" : "") + "; environment names "
                    + config.environment().keySet());
            try {
                Reaper.register(this);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: do not leave the child behind
                p.destroyForcibly();
                throw new McpTransportException("cannot start " + config.programName()
                        + ": the JVM is shutting down", e);
            }
            try {
                // pipe I/O blocks in native code: platform threads, never carriers of the virtual-thread scheduler
                // named now, while the child surely holds them: a process that leaves the tree may keep them
                stdoutPipe = PipeWake.pipeOf(p.pid(), 1);
                stderrPipe = PipeWake.pipeOf(p.pid(), 2);
                readerThread = startPipeThread("stdio-reader", () -> reader.run(p.getInputStream()));
                threads.add(readerThread);
                stderrThread = startPipeThread("stdio-stderr", () -> stderr.run(p.getErrorStream()));
                threads.add(stderrThread);
                writer.attach(p.getOutputStream());
                writerThread = startPipeThread("stdio-writer", writer::run);
                threads.add(writerThread);
                // waits on onExit(), which parks a virtual thread without holding its carrier
                watcherThread = threadSource.start("stdio-exit", this::watchExit);
                threads.add(watcherThread);
            } catch (Throwable e) {
                // typically OutOfMemoryError "unable to create native thread": the OS refused an OS thread
                throw abortOpen(p, e);
            }
            if (userClosed) {
                // close() ran meanwhile and waits for this lock; it ends what was just started
                throw closedException();
            }
        } finally {
            lifecycle.unlock();
        }
    }

    /**
     * Starts a platform thread for pipe I/O whose end is signalled through a latch: waiting for a platform thread
     * with {@link Thread#join} is monitor-locked on JDK 21 and would pin a virtual thread that closes us.
     */
    private Thread startPipeThread(String purpose, Runnable task) {
        java.util.function.Function<String, Error> fault = pipeThreadFault;
        Error refused = fault == null ? null : fault.apply(purpose);
        if (refused != null) {
            throw refused;
        }
        CountDownLatch ended = new CountDownLatch(1);
        Thread t = threadSource.startPlatform(purpose, PIPE_THREAD_STACK, () -> {
            try {
                task.run();
            } finally {
                ended.countDown();
            }
        });
        pipeThreadEnds.put(t, ended);
        return t;
    }

    /**
     * Undoes a launch whose threads could not all be started: fails the transport, ends the process tree and the
     * threads already started (bounded, as {@link #close()}), and returns the exception for the caller.
     */
    private McpTransportException abortOpen(Process p, Throwable e) {
        McpTransportException ex = new McpTransportException("cannot start the threads of the stdio transport for "
                + config.programName() + " (" + e + "); each open server needs 3 OS threads: the OS's limit on"
                + " threads or memory may be reached", e);
        failure.compareAndSet(null, ex);
        shutdownStarted.set(true);
        try {
            // no writer may exist to close stdin: close it here so that the child sees the end of its input
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // the child is gone
        }
        runShutdown();
        return ex;
    }

    // ------------------------------------------------------------------------------------------------ send

    void send(JsonRpcMessage message) {
        if (userClosed) {
            throw closedException();
        }
        McpTransportException f = failure.get();
        if (f != null) {
            throw f;
        }
        if (!opened || process == null) {
            throw new IllegalStateException("the stdio transport for " + config.programName() + " is not open");
        }
        writer.send(message, framing.encode(message));
        // the transport may have failed meanwhile; what is queued then is dropped, and the caller learns it from
        // onClosed like every other pending call
    }

    /**
     * Returns the exception for a use of a transport its owner closed: an {@link McpClosedException} whose cause is
     * the failure that ended the transport before the close, if any.
     */
    private McpClosedException closedException() {
        McpTransportException f = failure.get();
        return new McpClosedException("the stdio transport for " + config.programName() + " is closed",
                f == null || f == closeMarker ? null : f);
    }

    // ------------------------------------------------------------------------------------------------ exit

    private void watchExit() {
        Process p = process;
        try {
            boolean exited = false;
            Duration startup = config.startupTimeout();
            if (startup != null) {
                exited = tree.awaitExit(startup.toNanos());
                if (!exited && !reader.sawMessage() && failure.get() == null) {
                    LOG.log(Level.WARNING, () -> config.programName() + " sent no message within the startup"
                            + " timeout of " + format(startup) + "; ending it");
                    fail(new McpTransportException(config.programName() + " sent no message within "
                            + format(startup) + " of its launch (startupTimeout); the process is stopped"
                            + tailSuffix()));
                }
            }
            if (!exited) {
                tree.awaitExit(Long.MAX_VALUE);
            }
            int code = p.exitValue();
            exitCode = code;
            if (failure.get() == null) {
                // let the pipes deliver what the child wrote before it died, bounded (a grandchild may hold them)
                long drainDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MILLIS);
                stderr.awaitEof(drainDeadline - System.nanoTime());
                reader.awaitEof(drainDeadline - System.nanoTime());
                McpProcessExitedException ex = new McpProcessExitedException(config.programName(),
                        OptionalInt.of(code), McpProcessExitedException.signalOf(code, Launch.windows()),
                        ring.tail());
                LOG.log(Level.DEBUG, ex::getMessage);
                fail(ex);
            } else {
                LOG.log(Level.DEBUG, () -> config.programName() + " (pid " + p.pid() + ") exited with code " + code);
            }
        } catch (InterruptedException e) {
            // shutdown
        }
    }

    /** The end of the stderr tail for an exception message: {@code " (stderr tail: ...)"}, or empty. */
    String tailSuffix() {
        String t = ring.tail().strip().replace("\r", "").replace("\n", " | ");
        if (t.isEmpty()) {
            return "";
        }
        if (t.length() > 500) {
            t = "..." + t.substring(t.length() - 500);
        }
        return " (stderr tail: " + t + ")";
    }

    static String format(Duration d) {
        if (d.toMillis() % 1000 == 0) {
            return d.toSeconds() + " s";
        }
        return d.toMillis() + " ms";
    }

    // ------------------------------------------------------------------------------------------------ failure

    /** Returns whether the transport has failed or was closed: what arrives then is dropped. */
    boolean failed() {
        return failure.get() != null;
    }

    /** Returns the sink, or {@code null} when it is gone (the transport was dropped) or before open. */
    TransportSink sink() {
        return sinkRef.get();
    }

    /**
     * Fails with {@code ex} unless the process exits soon, in which case the exit watcher reports the exit.
     *
     * @param ex what to report when the process is still running after twice the drain bound
     */
    void waitThenFail(McpTransportException ex) {
        try {
            if (!tree.awaitExit(TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MILLIS * 2))) {
                fail(ex);
            }
        } catch (InterruptedException e) {
            // shutdown
        }
    }

    /**
     * The transport is lost: report once, then end the process tree in the background. Later calls do nothing.
     *
     * @param ex the failure, given to the sink's {@code onClosed} unless the owner closed the transport
     */
    void fail(McpTransportException ex) {
        if (!failure.compareAndSet(null, ex)) {
            return;
        }
        if (!userClosed) {
            TransportSink sink = sinkRef.get();
            if (sink != null) {
                try {
                    sink.onClosed(ex);
                } catch (Throwable e) {
                    // the shutdown below must still run
                    LOG.log(Level.WARNING, () -> "the sink of " + config.programName() + " failed in onClosed: "
                            + e.getClass().getName(), e);
                }
            }
        }
        if (shutdownStarted.compareAndSet(false, true)) {
            Thread reaper = threadSource.newThread("stdio-reaper", this::runShutdown);
            threads.add(reaper);
            reaper.start();
        }
    }

    // ------------------------------------------------------------------------------------------------ close

    /**
     * Closes with the stdin and terminate graces cut to at most {@code grace}: see
     * {@link StdioTransport#close(Duration)}. A shutdown already under way (after a failure) shortens its current
     * wait too.
     */
    void close(Duration grace) {
        long nanos = Math.max(0, grace.toNanos());
        graceCapNanos = Math.min(graceCapNanos, nanos);
        close();
    }

    /** Closes: see {@link StdioTransport#close()}. */
    void close() {
        userClosed = true;
        boolean mine;
        lifecycle.lock();
        try {
            McpTransportException marker = new McpTransportException("the stdio transport for "
                    + config.programName() + " is closed");
            closeMarker = marker;
            failure.compareAndSet(null, marker);
            mine = shutdownStarted.compareAndSet(false, true);
            opened = true;
        } finally {
            lifecycle.unlock();
        }
        if (mine) {
            runShutdown();
            return;
        }
        if (threads.contains(Thread.currentThread())) {
            // called back from our own thread (a sink closing the client from onClosed): the shutdown is under
            // way on another of our threads and waiting for it here could wait for ourselves
            return;
        }
        try {
            long bound = config.stdinCloseGrace().toMillis() + config.terminateGrace().toMillis()
                    + config.killGrace().toMillis() + JOIN_MILLIS + 2000;
            if (!shutdownDone.await(bound, TimeUnit.MILLISECONDS)) {
                LOG.log(Level.WARNING, () -> "closing the stdio transport for " + config.programName()
                        + " did not finish in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void runShutdown() {
        Process p = process;
        ProcessTree t = tree;
        boolean interrupted = false;
        try {
            if (p == null) {
                return;
            }
            t.remember();
            // a leader that died on its own (before we closed its stdin) will not tell the rest of its group to
            // go: what is left of the group is ended at once, without waiting out the stdin grace
            boolean leaderDeadBefore = t.leaderGone();
            // 1. close stdin (the writer writes what is queued, then closes it; a writer stuck on a full pipe is
            //    released by the signals below)
            writer.closeStdin();
            long stdinClosed = System.nanoTime();
            boolean exited = leaderDeadBefore || awaitExitWithin(t, stdinClosed, config.stdinCloseGrace());
            if (!exited || !t.alive().isEmpty()) {
                // 2. the child (or something it left) is still there: wait out the rest of the stdin grace for
                //    the tree (unless the leader was dead before), then SIGTERM it
                if (exited && !leaderDeadBefore) {
                    awaitGoneWithin(t, stdinClosed, config.stdinCloseGrace());
                }
                if (!t.alive().isEmpty()) {
                    LOG.log(Level.DEBUG, () -> "terminating the process tree of " + config.programName());
                    t.signal(false);
                    if (!awaitGoneWithin(t, System.nanoTime(), config.terminateGrace())) {
                        // 3. still there: SIGKILL
                        LOG.log(Level.DEBUG, () -> "killing the process tree of " + config.programName());
                        t.signal(true);
                        if (!t.awaitGone(System.nanoTime() + config.killGrace().toNanos())) {
                            List<ProcessHandle> left = t.alive();
                            LOG.log(Level.WARNING, () -> "processes of " + config.programName()
                                    + " are still alive after SIGKILL: " + left.stream().map(ProcessHandle::pid)
                                    .toList());
                        }
                    }
                }
            }
            if (!p.isAlive()) {
                exitCode = p.exitValue();
            }
        } catch (InterruptedException e) {
            // the closing thread was interrupted: skip the graceful steps, kill the tree and wait for it (bounded;
            // the interrupt status was cleared by the exception and is restored below)
            interrupted = true;
            t.signal(true);
            try {
                t.awaitGone(System.nanoTime() + config.killGrace().toNanos());
            } catch (InterruptedException again) {
                // give up waiting
            }
        } finally {
            try {
                joinThreads();
            } finally {
                Reaper.unregister(this);
                shutdownDone.countDown();
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** How long one wait of a graceful shutdown step lasts before it looks again at {@link #graceCapNanos}. */
    private static final long GRACE_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** The end of a graceful step that started at {@code start}: its grace, cut by {@link #close(Duration)}. */
    private long stepDeadline(long start, Duration grace) {
        return start + Math.min(grace.toNanos(), graceCapNanos);
    }

    /** Waits for the child's exit until the step's deadline, which a later {@link #close(Duration)} may bring in. */
    private boolean awaitExitWithin(ProcessTree t, long start, Duration grace) throws InterruptedException {
        while (true) {
            long left = stepDeadline(start, grace) - System.nanoTime();
            if (t.awaitExit(Math.max(0, Math.min(left, GRACE_SLICE_NANOS)))) {
                return true;
            }
            if (stepDeadline(start, grace) - System.nanoTime() <= 0) {
                return false;
            }
        }
    }

    /** Waits for the whole tree to be gone until the step's deadline, which {@link #close(Duration)} may bring in. */
    private boolean awaitGoneWithin(ProcessTree t, long start, Duration grace) throws InterruptedException {
        while (true) {
            long deadline = stepDeadline(start, grace);
            if (t.awaitGone(Math.min(deadline, System.nanoTime() + GRACE_SLICE_NANOS))) {
                return true;
            }
            if (stepDeadline(start, grace) - System.nanoTime() <= 0) {
                return false;
            }
        }
    }

    /** Whether the shutdown gave up reading the pipes: the pipe threads stop at their next read. */
    boolean pipesAbandoned() {
        return pipesAbandoned;
    }

    /**
     * The tree is gone: its pipes reach their end at once unless a process outside the tree (a daemon that left the
     * session and group) still holds them. Then the pipe threads are not left blocked on them: they are told to stop
     * and, on Linux, woken ({@link PipeWake}); what that process writes later is not read.
     */
    private void releasePipeThreads() throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MILLIS);
        boolean ended = true;
        for (Thread th : new Thread[] {readerThread, stderrThread}) {
            CountDownLatch latch = th == null ? null : pipeThreadEnds.get(th);
            if (latch != null && !latch.await(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                ended = false;
            }
        }
        if (ended) {
            return;
        }
        pipesAbandoned = true;
        boolean woken = PipeWake.wake(stdoutPipe) | PipeWake.wake(stderrPipe);
        LOG.log(woken ? Level.DEBUG : Level.WARNING, () -> "a process outside the process tree of "
                + config.programName() + " (a daemon that left its session and group) holds its stdout or stderr "
                + "open; it is not ended, and what it writes is no longer read"
                + (woken ? "" : "; the reading threads end when it closes them or exits"));
    }

    private void joinThreads() {
        try {
            releasePipeThreads();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MILLIS);
        for (Thread th : threads) {
            if (th == Thread.currentThread()) {
                continue;
            }
            if (th == watcherThread || th == writerThread) {
                th.interrupt();
            }
            long left = Math.max(deadline - System.nanoTime(), 1);
            CountDownLatch ended = pipeThreadEnds.get(th);
            try {
                boolean done = ended != null ? ended.await(left, TimeUnit.NANOSECONDS)
                        : th.join(Duration.ofNanos(left));
                if (!done) {
                    LOG.log(Level.WARNING, () -> th.getName() + " of " + config.programName()
                            + " did not end after the process tree was gone (a process outside the tree may hold"
                            + " its pipe)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ hook

    void hookTerminate() {
        userClosed = true;
        failure.compareAndSet(null, new McpTransportException("the JVM is shutting down"));
        ProcessTree t = tree;
        if (t != null && shutdownDone.getCount() > 0) {
            t.remember();
            t.signal(false);
        }
    }

    void hookKill() {
        ProcessTree t = tree;
        if (t != null) {
            t.signal(true);
        }
    }

    boolean hookAwaitGone(long deadlineNanos) {
        ProcessTree t = tree;
        if (t == null) {
            return true;
        }
        try {
            return t.awaitGone(deadlineNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
