package dev.loommcp.transport.stdio;

import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.TransportSink;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stdout side of a {@link StdioConnection}: reads the child's stdout on the {@code stdio-reader} pipe thread,
 * cuts it into newline-delimited JSON-RPC messages (bounded by {@code maxMessageBytes}), decodes them and hands them
 * to the sink; lines that are not JSON-RPC are skipped and reported.
 *
 * <p>Its {@link #run(InputStream)} runs on one thread; the counters and the end-of-stream latch are read from any
 * thread.
 */
final class StdoutReader {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.stdio");
    private static final System.Logger WIRE = System.getLogger("dev.loommcp.transport.stdio.wire");

    /** How much is read from the pipe at once. */
    static final int READ_CHUNK = 64 * 1024;
    private static final int EXCERPT_CHARS = 80;
    private static final int SKIP_WARNINGS = 20;

    private final StdioConnection conn;
    private final LaunchConfig config;
    private final CountDownLatch stdoutEof = new CountDownLatch(1);
    private final AtomicLong skipped = new AtomicLong();
    private volatile boolean firstMessage;

    StdoutReader(StdioConnection conn, LaunchConfig config) {
        this.conn = conn;
        this.config = config;
    }

    /** Returns how many stdout lines were skipped as not JSON-RPC. */
    long skippedLines() {
        return skipped.get();
    }

    /** Returns whether a JSON-RPC message arrived (the startup timeout is then met). */
    boolean sawMessage() {
        return firstMessage;
    }

    /**
     * Waits until stdout reached its end (or reading it failed or stopped), at most {@code nanos}.
     *
     * @param nanos how long to wait at most, in nanoseconds (zero or less: do not wait)
     * @throws InterruptedException if the waiting thread is interrupted
     */
    void awaitEof(long nanos) throws InterruptedException {
        stdoutEof.await(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Reads {@code in} until its end, a failure, or a line longer than the limit (the pipe thread's task). Never
     * throws: an I/O failure, an end of stdout while the child runs and an oversized line fail the connection.
     *
     * @param in the child's stdout
     */
    void run(InputStream in) {
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
                if (conn.pipesAbandoned()) {
                    return; // woken by PipeWake: a process outside the tree holds the pipe
                }
                int i = end;
                end += n;
                for (i = newline(buf, i, end); i < end; i = newline(buf, i + 1, end)) {
                    if (!handleLine(buf, start, i - start)) {
                        return;
                    }
                    start = i + 1;
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
            if (!conn.failed()) {
                conn.waitThenFail(new McpTransportException("reading the stdout of " + config.programName()
                        + " failed: " + e.getMessage(), e));
            }
        } finally {
            stdoutEof.countDown();
        }
        if (eof && !conn.failed()) {
            // stdout closed: if the process exits, the exit watcher reports it with its exit code
            conn.waitThenFail(new McpTransportException(config.programName() + " closed its stdout but is still"
                    + " running" + conn.tailSuffix()));
        }
    }

    /** Eight bytes of an array as one little-endian {@code long}: the lowest byte is the first. */
    private static final VarHandle EIGHT = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long EACH_ONE = 0x0101010101010101L;
    private static final long EACH_NEWLINE = EACH_ONE * '\n';
    private static final long EACH_HIGH_BIT = 0x8080808080808080L;

    /**
     * The index of the first {@code '\n'} in {@code buf[from, end)}, eight bytes at a time, or {@code end} when there
     * is none. (A modern message is a few hundred bytes: the reader thread, through which all of them pass, would
     * otherwise compare each byte on its own.)
     */
    static int newline(byte[] buf, int from, int end) {
        int i = from;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            long x = (long) EIGHT.get(buf, i) ^ EACH_NEWLINE; // a zero byte where the newline is
            // the high bit marks each zero byte; a borrow can only mark bytes above the first zero, so the lowest is
            // exact
            long marks = (x - EACH_ONE) & ~x & EACH_HIGH_BIT;
            if (marks != 0) {
                return i + (Long.numberOfTrailingZeros(marks) >>> 3);
            }
        }
        while (i < end && buf[i] != '\n') {
            i++;
        }
        return i;
    }

    private void tooLarge(long seen) {
        LOG.log(Level.WARNING, () -> config.programName() + " sent a line longer than maxMessageBytes ("
                + config.maxMessageBytes() + " bytes); closing the transport");
        conn.fail(new McpTransportException(config.programName() + " sent a message longer than the limit of "
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
            messages = conn.framing().decode(buf, off, len);
        } catch (McpProtocolException e) {
            skip(buf, off, len, buf[first] == '{' || buf[first] == '[', e.getMessage());
            return true;
        } catch (RuntimeException e) {
            skip(buf, off, len, false, e.getClass().getSimpleName());
            return true;
        }
        firstMessage = true;
        if (conn.failed()) {
            return true;
        }
        TransportSink sink = conn.sink();
        if (sink == null) {
            return true;
        }
        for (JsonRpcMessage m : messages) {
            if (m instanceof JsonRpcMessage.Response r) {
                conn.writer().noteAnswered(r.id());
            } else if (m instanceof JsonRpcMessage.ErrorResponse r && r.id() != null) {
                conn.writer().noteAnswered(r.id());
            }
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
        TransportSink sink = conn.sink();
        if (sink != null && !conn.failed()) {
            // an answer that names its request fails that call now instead of leaving it to its deadline
            RequestId answers = looksLikeJson ? conn.framing().malformedResponseId(buf, off, len) : null;
            try {
                if (answers != null) {
                    sink.onMalformedResponse(answers, problem);
                } else {
                    sink.onSkipped(problem);
                }
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
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                sb.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c)); // ESC shows as \x1b
            } else {
                sb.append(c);
            }
        }
        if (count < s.length() || len > EXCERPT_CHARS * 4) {
            sb.append("...");
        }
        return sb.toString();
    }
}
