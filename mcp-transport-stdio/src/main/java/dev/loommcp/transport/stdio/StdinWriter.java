package dev.loommcp.transport.stdio;

import dev.loommcp.McpTransportException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stdin side of a {@link StdioConnection}: a queue of encoded messages, bounded in bytes, that the
 * {@code stdio-writer} pipe thread writes to the child's stdin one line each, and closes stdin when told to.
 *
 * <p>{@link #enqueue} and {@link #closeStdin} are called from any thread; {@link #run(OutputStream)} runs on one.
 */
final class StdinWriter {

    private static final System.Logger WIRE = System.getLogger("dev.loommcp.transport.stdio.wire");

    /** Queued after the last message: the writer closes stdin when it reaches it. */
    private static final byte[] POISON = new byte[0];

    private final StdioConnection conn;
    private final LaunchConfig config;
    private final long maxQueuedBytes;
    private final LinkedBlockingQueue<byte[]> outQueue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();

    StdinWriter(StdioConnection conn, LaunchConfig config) {
        this.conn = conn;
        this.config = config;
        this.maxQueuedBytes = Math.max(64L * 1024 * 1024, 4L * config.maxMessageBytes());
    }

    /**
     * Queues one encoded message (without its newline) and returns at once.
     *
     * @param bytes the message as UTF-8 JSON
     * @throws McpTransportException if the child is not reading its stdin: more than the limit of bytes is queued
     */
    void enqueue(byte[] bytes) {
        long queued = queuedBytes.addAndGet(bytes.length);
        if (queued > maxQueuedBytes) {
            queuedBytes.addAndGet(-bytes.length);
            throw new McpTransportException(config.programName() + " is not reading its stdin: " + queued
                    + " bytes are queued (limit " + maxQueuedBytes + ")");
        }
        outQueue.add(bytes);
    }

    /** Tells the writer to close stdin once it wrote what is queued before this call. */
    void closeStdin() {
        outQueue.add(POISON);
    }

    /**
     * Writes the queue to {@code out} until told to close it, interrupted or failing, then closes {@code out} (the
     * pipe thread's task). Never throws: a write failure fails the connection unless the child exits soon.
     *
     * @param out the child's stdin
     */
    void run(OutputStream out) {
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
            if (!conn.failed()) {
                // usually the child died (broken pipe): the exit watcher reports that with the exit code
                conn.waitThenFail(new McpTransportException("writing to the stdin of " + config.programName()
                        + " failed: " + e.getMessage(), e));
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
}
