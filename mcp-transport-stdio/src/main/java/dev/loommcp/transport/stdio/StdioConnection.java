package dev.loommcp.transport.stdio;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.JsonRpcFraming;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportSink;
import dev.loommcp.spi.TransportThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The running side of a {@link StdioTransport}: the child process, its four threads (stdout reader, stderr drainer,
 * stdin writer, exit watcher) and the shutdown sequence.
 *
 * <p>The three threads that block in native pipe I/O (reader, drainer, writer) are platform daemon threads with a
 * small stack ({@link #PIPE_THREAD_STACK}): on a virtual thread a blocked pipe read or write holds a carrier of the
 * virtual-thread scheduler, and some 100 open servers would leave no carrier for any virtual thread in the JVM. The
 * exit watcher and the shutdown are virtual threads that wait on {@link Process#onExit()} (completed by the JDK's
 * own "process reaper" thread, which exists for every child anyway) and never call {@link Process#waitFor}, which is
 * {@code synchronized} (pinning) on JDK 21.
 *
 * <p>It never refers to the {@link StdioTransport} object, and holds the sink only weakly (the transport holds it
 * strongly), so a transport that its owner dropped without closing becomes unreachable and its {@link Reaper}
 * cleaner can end the process tree.
 */
final class StdioConnection {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.stdio");
    private static final System.Logger WIRE = System.getLogger("dev.loommcp.transport.stdio.wire");

    private static final byte[] POISON = new byte[0];
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
    /** After this many failures of the stderr listener, further ones are logged at DEBUG. */
    private static final int LISTENER_WARNINGS = 5;
    private static final int READ_CHUNK = 64 * 1024;
    private static final int STDERR_LINE_MAX = 8 * 1024;
    private static final int EXCERPT_CHARS = 80;
    private static final int SKIP_WARNINGS = 20;
    /** How long exit reporting waits for the pipes to deliver what the child wrote before it died. */
    private static final long DRAIN_AFTER_EXIT_MILLIS = 500;
    /** How long the shutdown waits for the transport's own threads after the process tree is gone. */
    private static final long JOIN_MILLIS = 1000;

    private final LaunchConfig config;
    private final StderrRing ring;
    private final long maxQueuedBytes;

    private final ReentrantLock lifecycle = new ReentrantLock();
    private final AtomicReference<McpTransportException> failure = new AtomicReference<>();
    private final AtomicBoolean shutdownStarted = new AtomicBoolean();
    private final CountDownLatch shutdownDone = new CountDownLatch(1);
    private final CountDownLatch stdoutEof = new CountDownLatch(1);
    private final CountDownLatch stderrEof = new CountDownLatch(1);
    private final LinkedBlockingQueue<byte[]> outQueue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong listenerFailures = new AtomicLong();

    private volatile boolean userClosed;
    /** The failure close() recorded, to tell it from a failure that came before the close. */
    private volatile McpTransportException closeMarker;
    private volatile boolean opened;
    private volatile boolean firstMessage;
    private volatile WeakReference<TransportSink> sinkRef = new WeakReference<>(null);
    private volatile Process process;
    private volatile ProcessTree tree;
    private volatile Integer exitCode;
    private final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The end of each pipe thread (platform threads are awaited through these, never joined). */
    private final Map<Thread, CountDownLatch> pipeThreadEnds = new ConcurrentHashMap<>();
    private volatile Thread writerThread;
    private volatile Thread watcherThread;
    /** The client's threads and framing, from the context given to {@link #open}. */
    private volatile TransportThreads threadSource = TransportThreads.standard();
    private volatile JsonRpcFraming framing = JsonRpcFraming.standard();

    StdioConnection(LaunchConfig config) {
        this.config = config;
        this.ring = new StderrRing(config.stderrBufferBytes());
        this.maxQueuedBytes = Math.max(64L * 1024 * 1024, 4L * config.maxMessageBytes());
    }

    /** The threads this connection was opened with (the core's until then). */
    TransportThreads threads() {
        return threadSource;
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
        return skipped.get();
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
            tree = new ProcessTree(p, config.grouped(), config.killCommand());
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
                threads.add(startPipeThread("stdio-reader", this::readStdout));
                threads.add(startPipeThread("stdio-stderr", this::drainStderr));
                writerThread = startPipeThread("stdio-writer", this::writeStdin);
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
     * with {@link Thread#join} is {@code synchronized} on JDK 21 and would pin a virtual thread that closes us.
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
        byte[] bytes = framing.encode(message);
        long queued = queuedBytes.addAndGet(bytes.length);
        if (queued > maxQueuedBytes) {
            queuedBytes.addAndGet(-bytes.length);
            throw new McpTransportException(config.programName() + " is not reading its stdin: " + queued
                    + " bytes are queued (limit " + maxQueuedBytes + ")");
        }
        outQueue.add(bytes);
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

    // ------------------------------------------------------------------------------------------------ threads

    private void writeStdin() {
        Process p = process;
        OutputStream out = p.getOutputStream();
        List<byte[]> batch = new ArrayList<>();
        try {
            boolean stop = false;
            while (!stop) {
                batch.add(outQueue.take());
                outQueue.drainTo(batch);
                for (byte[] b : batch) {
                    if (b == POISON) {
                        stop = true;
                        break;
                    }
                    if (WIRE.isLoggable(Level.TRACE)) {
                        WIRE.log(Level.TRACE, "-> " + config.programName() + ": "
                                + new String(b, StandardCharsets.UTF_8));
                    }
                    out.write(b);
                    out.write('\n');
                    queuedBytes.addAndGet(-b.length);
                }
                out.flush();
                batch.clear();
            }
        } catch (InterruptedException e) {
            // shutdown
        } catch (IOException e) {
            if (failure.get() == null) {
                // usually the child died (broken pipe): the exit watcher reports that with the exit code
                try {
                    if (!tree.awaitExit(TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MILLIS * 2))) {
                        fail(new McpTransportException("writing to the stdin of " + config.programName()
                                + " failed: " + e.getMessage(), e));
                    }
                } catch (InterruptedException ie) {
                    // shutdown
                }
            }
        } finally {
            outQueue.clear();
            try {
                out.close();
            } catch (IOException ignored) {
                // the child is gone
            }
        }
    }

    private void readStdout() {
        InputStream in = process.getInputStream();
        int limit = config.maxMessageBytes();
        int cap = (int) Math.min((long) limit + 2, Integer.MAX_VALUE - 8);
        byte[] buf = new byte[Math.min(READ_CHUNK, cap)];
        int start = 0;
        int end = 0;
        boolean eof = false;
        try {
            while (true) {
                if (end == buf.length) {
                    if (start > 0) {
                        System.arraycopy(buf, start, buf, 0, end - start);
                        end -= start;
                        start = 0;
                    } else {
                        // one partial line fills the buffer: grow it, up to the limit (the check below fails first)
                        int grown = (int) Math.min((long) buf.length * 2, cap);
                        byte[] nb = new byte[grown];
                        System.arraycopy(buf, 0, nb, 0, end);
                        buf = nb;
                    }
                }
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    eof = true;
                    break;
                }
                int i = end;
                end += n;
                for (; i < end; i++) {
                    if (buf[i] == '\n') {
                        if (!handleLine(buf, start, i - start)) {
                            return;
                        }
                        start = i + 1;
                    }
                }
                if (start == end) {
                    start = 0;
                    end = 0;
                } else if (end - start > limit + 1) {
                    tooLarge(end - start);
                    return;
                }
            }
            if (end > start) {
                handleLine(buf, start, end - start);
            }
        } catch (IOException e) {
            if (failure.get() == null) {
                waitThenFail(new McpTransportException("reading the stdout of " + config.programName()
                        + " failed: " + e.getMessage(), e));
            }
        } finally {
            stdoutEof.countDown();
        }
        if (eof && failure.get() == null) {
            // stdout closed: if the process exits, the exit watcher reports it with its exit code
            waitThenFail(new McpTransportException(config.programName() + " closed its stdout but is still running"
                    + tailSuffix()));
        }
    }

    /** Fails with {@code ex} unless the process exits soon, in which case the exit watcher reports the exit. */
    private void waitThenFail(McpTransportException ex) {
        try {
            if (!tree.awaitExit(TimeUnit.MILLISECONDS.toNanos(DRAIN_AFTER_EXIT_MILLIS * 2))) {
                fail(ex);
            }
        } catch (InterruptedException e) {
            // shutdown
        }
    }

    private void tooLarge(long seen) {
        LOG.log(Level.WARNING, () -> config.programName() + " sent a line longer than maxMessageBytes ("
                + config.maxMessageBytes() + " bytes); closing the transport");
        fail(new McpTransportException(config.programName() + " sent a message longer than the limit of "
                + config.maxMessageBytes() + " bytes (maxMessageBytes; at least " + seen
                + " bytes without a newline); the transport is closed"));
    }

    /**
     * Handles one line of stdout (without its {@code '\n'}).
     *
     * @return {@code false} when reading must stop
     */
    private boolean handleLine(byte[] buf, int off, int len) {
        if (len > 0 && buf[off + len - 1] == '\r') {
            len--;
        }
        if (len > config.maxMessageBytes()) {
            tooLarge(len);
            return false;
        }
        int first = off;
        int stop = off + len;
        while (first < stop && (buf[first] == ' ' || buf[first] == '\t' || buf[first] == '\r')) {
            first++;
        }
        if (first == stop) {
            return true;
        }
        if (WIRE.isLoggable(Level.TRACE)) {
            WIRE.log(Level.TRACE, "<- " + config.programName() + ": " + new String(buf, off, len,
                    StandardCharsets.UTF_8));
        }
        List<JsonRpcMessage> messages;
        try {
            messages = framing.decode(buf, off, len);
        } catch (McpProtocolException e) {
            skip(buf, off, len, buf[first] == '{' || buf[first] == '[', e.getMessage());
            return true;
        } catch (RuntimeException e) {
            skip(buf, off, len, false, e.getClass().getSimpleName());
            return true;
        }
        firstMessage = true;
        if (failure.get() != null) {
            return true;
        }
        TransportSink sink = sinkRef.get();
        if (sink == null) {
            return true;
        }
        for (JsonRpcMessage m : messages) {
            try {
                sink.onMessage(m);
            } catch (Throwable e) {
                // any Throwable (an Error too): reading must go on, or every later call would hang
                LOG.log(Level.WARNING, () -> "the sink of " + config.programName() + " failed on a message: "
                        + e.getClass().getName(), e);
            }
        }
        return true;
    }

    private void skip(byte[] buf, int off, int len, boolean looksLikeJson, String reason) {
        long n = skipped.incrementAndGet();
        String problem;
        if (looksLikeJson) {
            // valid-looking JSON may hold payload data: name the problem only
            problem = "skipped a line from the stdout of " + config.programName() + " (" + len + " bytes): "
                    + reason;
        } else {
            problem = "skipped a line from the stdout of " + config.programName() + " that is not JSON-RPC ("
                    + len + " bytes): \"" + excerpt(buf, off, len) + "\"";
        }
        Level level = n <= SKIP_WARNINGS ? Level.WARNING : Level.DEBUG;
        LOG.log(level, n == SKIP_WARNINGS ? problem + " (further skipped lines are logged at DEBUG)" : problem);
        TransportSink sink = sinkRef.get();
        if (sink != null && failure.get() == null) {
            try {
                sink.onSkipped(problem);
            } catch (Throwable e) {
                LOG.log(Level.WARNING, () -> "the sink of " + config.programName() + " failed in onSkipped: "
                        + e.getClass().getName(), e);
            }
        }
    }

    static String excerpt(byte[] buf, int off, int len) {
        String s = new String(buf, off, Math.min(len, EXCERPT_CHARS * 4), StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder();
        int count = 0;
        for (int i = 0; i < s.length() && count < EXCERPT_CHARS; i++, count++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        if (count < s.length() || len > EXCERPT_CHARS * 4) {
            sb.append("...");
        }
        return sb.toString();
    }

    private void drainStderr() {
        InputStream err = process.getErrorStream();
        LineBuffer lineBuf = new LineBuffer(Math.min(STDERR_LINE_MAX, config.stderrBufferBytes()));
        byte[] buf = new byte[READ_CHUNK];
        try {
            int n;
            while ((n = err.read(buf)) >= 0) {
                int from = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        lineBuf.append(buf, from, i - from);
                        emitStderr(lineBuf);
                        from = i + 1;
                    }
                }
                lineBuf.append(buf, from, n - from);
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, () -> "reading the stderr of " + config.programName() + " ended: " + e);
        } finally {
            if (lineBuf.len > 0 || lineBuf.dropped > 0) {
                emitStderr(lineBuf);
            }
            stderrEof.countDown();
        }
    }

    /** One stderr line being collected, cut at a maximum length. */
    private static final class LineBuffer {
        final byte[] bytes;
        int len;
        long dropped;

        LineBuffer(int max) {
            bytes = new byte[Math.max(1, max)];
        }

        void append(byte[] b, int off, int n) {
            int take = Math.min(n, bytes.length - len);
            System.arraycopy(b, off, bytes, len, take);
            len += take;
            dropped += n - take;
        }
    }

    private void emitStderr(LineBuffer lb) {
        int len = lb.len;
        if (lb.dropped == 0 && len > 0 && lb.bytes[len - 1] == '\r') {
            len--;
        }
        String line = new String(lb.bytes, 0, len, StandardCharsets.UTF_8);
        if (lb.dropped > 0) {
            line = line + " [... " + lb.dropped + " more bytes]";
        }
        lb.len = 0;
        lb.dropped = 0;
        ring.add(line);
        if (LOG.isLoggable(Level.TRACE)) {
            LOG.log(Level.TRACE, config.programName() + " stderr: " + line);
        }
        if (config.stderrListener() != null) {
            try {
                config.stderrListener().accept(line);
            } catch (Throwable e) {
                // any Throwable (an Error too) is contained: draining must go on, or the child blocks on a full
                // pipe. Only the class is logged above DEBUG: the message may quote the line (payload)
                long n = listenerFailures.incrementAndGet();
                if (n <= LISTENER_WARNINGS) {
                    LOG.log(Level.WARNING, () -> "the stderr listener of " + config.programName() + " threw "
                            + e.getClass().getName() + "; stderr draining goes on"
                            + (n == LISTENER_WARNINGS ? " (further failures are logged at DEBUG)" : ""));
                }
                LOG.log(Level.DEBUG, () -> "the stderr listener of " + config.programName() + " threw", e);
            }
        }
    }

    private void watchExit() {
        Process p = process;
        try {
            boolean exited = false;
            Duration startup = config.startupTimeout();
            if (startup != null) {
                exited = tree.awaitExit(startup.toNanos());
                if (!exited && !firstMessage && failure.get() == null) {
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
                stderrEof.await(drainDeadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                stdoutEof.await(drainDeadline - System.nanoTime(), TimeUnit.NANOSECONDS);
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

    private String tailSuffix() {
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

    /** The transport is lost: report once, then end the process tree in the background. */
    private void fail(McpTransportException ex) {
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
            outQueue.add(POISON);
            long stdinDeadline = System.nanoTime() + config.stdinCloseGrace().toNanos();
            boolean exited = leaderDeadBefore || t.awaitExit(config.stdinCloseGrace().toNanos());
            if (!exited || !t.alive().isEmpty()) {
                // 2. the child (or something it left) is still there: wait out the rest of the stdin grace for
                //    the tree (unless the leader was dead before), then SIGTERM it
                if (exited && !leaderDeadBefore) {
                    t.awaitGone(stdinDeadline);
                }
                if (!t.alive().isEmpty()) {
                    LOG.log(Level.DEBUG, () -> "terminating the process tree of " + config.programName());
                    t.signal(false);
                    if (!t.awaitGone(System.nanoTime() + config.terminateGrace().toNanos())) {
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

    private void joinThreads() {
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
