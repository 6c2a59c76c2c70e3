package dev.loommcp.transport.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The stderr side of a {@link StdioConnection}: drains the child's stderr on the {@code stdio-stderr} pipe thread
 * (so that the child never blocks on a full pipe), cuts it into lines of at most {@value #STDERR_LINE_MAX} bytes,
 * keeps them in the {@link StderrRing} and hands them to the configured stderr listener, whose failures are
 * contained.
 *
 * <p>Its {@link #run(InputStream)} runs on one thread; the end-of-stream latch is awaited from any thread.
 */
final class StderrDrain {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.transport.stdio");

    /** After this many failures of the stderr listener, further ones are logged at DEBUG. */
    private static final int LISTENER_WARNINGS = 5;
    private static final int STDERR_LINE_MAX = 8 * 1024;

    private final LaunchConfig config;
    private final StderrRing ring;
    /** Whether the connection gave up reading the pipes (a process outside the tree holds them). */
    private final BooleanSupplier abandoned;
    private final CountDownLatch stderrEof = new CountDownLatch(1);
    private final AtomicLong listenerFailures = new AtomicLong();

    StderrDrain(LaunchConfig config, StderrRing ring, BooleanSupplier abandoned) {
        this.abandoned = abandoned;
        this.config = config;
        this.ring = ring;
    }

    /**
     * Waits until stderr reached its end (or reading it failed), at most {@code nanos}.
     *
     * @param nanos how long to wait at most, in nanoseconds (zero or less: do not wait)
     * @throws InterruptedException if the waiting thread is interrupted
     */
    void awaitEof(long nanos) throws InterruptedException {
        stderrEof.await(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Drains {@code err} until its end (the pipe thread's task). Never throws: a read failure ends the draining.
     *
     * @param err the child's stderr
     */
    void run(InputStream err) {
        LineBuffer lineBuf = new LineBuffer(Math.min(STDERR_LINE_MAX, config.stderrBufferBytes()));
        byte[] buf = new byte[StdoutReader.READ_CHUNK];
        try {
            int n;
            while ((n = err.read(buf)) >= 0) {
                if (abandoned.getAsBoolean()) {
                    return; // woken by PipeWake: a process outside the tree holds the pipe
                }
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
}
