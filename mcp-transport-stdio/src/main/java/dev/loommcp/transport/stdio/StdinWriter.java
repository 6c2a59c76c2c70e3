package dev.loommcp.transport.stdio;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The stdin side of a {@link StdioConnection}: writes each encoded message to the child's stdin as one line, either
 * directly on the sending thread or through a queue, bounded in bytes, that the {@code stdio-writer} pipe thread
 * drains; closes stdin when told to.
 *
 * <p><b>Two paths, one order.</b> {@link #send} writes the message itself (the <em>direct path</em>) only when that
 * write cannot block: nothing is queued or being written ({@code tryLock} of the write lock, never a wait), the
 * message is small, and the pipe provably has room for it (below). Otherwise it queues the message and returns at
 * once (the <em>queued path</em>), and the writer thread writes it, batching whatever is queued into one flush. Both
 * paths write under the same lock, and the direct path is taken only while no queued message is waiting or being
 * written (a count kept under that lock), so messages reach the pipe in the order their sends returned.
 *
 * <p><b>Why the direct write cannot block.</b> The JDK cannot ask a pipe how much room it has, and a process pipe
 * write ({@code Process.getOutputStream()}: a {@code FileOutputStream} on the pipe's descriptor behind an 8 KiB
 * buffer) is a blocking native call that neither an interrupt nor closing the stream releases: on a virtual thread it
 * holds the carrier ({@code Blocker.begin} makes the scheduler compensate with a spare carrier for its duration), and
 * a caller stuck in it would outlive its deadline. So the direct path proves the room from what the child answered: a
 * child that answered a request read from stdin every byte up to that request's end (a pipe is first in, first out).
 * The writer records, for the last request it wrote, its id and the offset of its end in the stream
 * ({@link #noteRequest}); when the stdout reader sees the answer to that id ({@link #noteAnswered}) everything up to
 * that offset is known consumed. The bytes possibly still in the pipe are then at most those written since, and a
 * direct write happens only when they and the message together fit {@link #DIRECT_ROOM} (4 KiB: the smallest pipe
 * buffer of the platforms the JDK runs on; Linux gives 64 KiB, or one to two pages to a user past its pipe quota;
 * macOS 16 KiB, Windows 4 KiB). A write into a pipe with room copies the bytes into the kernel and returns; it never
 * waits for the child. In a sequential exchange (send, answer, send) every send finds the pipe proven empty and is
 * written directly: no hand-off to the writer thread, no wake-up of it. Under concurrent load the proof lags (the
 * answers that arrive are mostly not to the last request) and sends take the queued path, where the writer thread
 * batches them. A server that never answers, or never reads its stdin, thus receives at most 4 KiB through the direct
 * path; every later message is queued, and its caller never blocks on the pipe (its request fails at its deadline as
 * before).
 *
 * <p>A direct write that fails (the child closed its stdin or died) hands the message to the writer thread, whose
 * write then fails the same way and runs the one failure path ({@link StdioConnection#waitThenFail}, which waits for
 * the exit to report it): the caller is never held by that wait.
 *
 * <p>{@link #send}, {@link #noteAnswered} and {@link #closeStdin} are called from any thread; {@link #run()} runs on
 * one (the writer thread), after {@link #attach}.
 */
final class StdinWriter {

    private static final System.Logger WIRE = System.getLogger("dev.loommcp.transport.stdio.wire");

    /** A queued message: its bytes, and its id when it is a request. */
    private record Queued(byte[] bytes, RequestId request) {
    }

    /** Queued after the last message: the writer closes stdin when it reaches it. */
    private static final Queued POISON = new Queued(new byte[0], null);

    /**
     * The most bytes (a message and its newline, plus those not yet proven consumed) a direct write may leave in the
     * pipe: the smallest pipe capacity among the JDK's platforms (one page), so that the write finds room.
     */
    static final int DIRECT_ROOM = 4096;

    /** Test seam: {@code false} sends everything through the writer thread (the queued path only). */
    static volatile boolean directWrites = true;

    /** The last request written: its id and the stream offset just past its newline. */
    private record Written(RequestId id, long end) {
    }

    private final StdioConnection conn;
    private final LaunchConfig config;
    private final long maxQueuedBytes;
    private final LinkedBlockingQueue<Queued> outQueue = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    /** Held for every write to the pipe (both paths); the direct path only tries it. */
    private final ReentrantLock writeLock = new ReentrantLock();

    /** The child's stdin; set once before the writer thread starts. */
    private volatile OutputStream out;
    /** Set once stdin is to be closed: no direct write after it. */
    private volatile boolean closing;
    /** Set once a direct write failed: everything then goes through the writer thread. */
    private volatile boolean directBroken;
    /**
     * Messages handed to the queue and not yet written (incremented on enqueue, decremented by the writer thread under
     * {@link #writeLock} once written): the direct path is open only at zero.
     */
    private final AtomicLong unwritten = new AtomicLong();
    /** Bytes written to the pipe so far (under {@link #writeLock}). */
    private long written;
    /** The last request written (see the class comment); replaced under {@link #writeLock}. */
    private volatile Written lastRequest;
    /** The stream offset up to which the child provably read (only the stdout reader thread raises it). */
    private volatile long consumed;
    /** Sends that took the direct path, for tests and measurements. */
    private final AtomicLong directCount = new AtomicLong();

    StdinWriter(StdioConnection conn, LaunchConfig config) {
        this.conn = conn;
        this.config = config;
        this.maxQueuedBytes = Math.max(64L * 1024 * 1024, 4L * config.maxMessageBytes());
    }

    /**
     * Sets the child's stdin; called once, before the writer thread starts and before any {@link #send}.
     *
     * @param stdin the child's stdin
     */
    void attach(OutputStream stdin) {
        this.out = stdin;
    }

    /** Returns how many messages took the direct path so far. */
    long directWrites() {
        return directCount.get();
    }

    /**
     * Writes one encoded message (without its newline) directly when that cannot block, or queues it; returns without
     * waiting for the child either way (see the class comment).
     *
     * @param message the message, to recognize a request (whose answer proves the child read it)
     * @param bytes   the message as UTF-8 JSON
     * @throws McpTransportException if the child is not reading its stdin: more than the limit of bytes is queued
     */
    void send(JsonRpcMessage message, byte[] bytes) {
        if (directWrites && tryDirect(message, bytes)) {
            return;
        }
        enqueue(new Queued(bytes, message instanceof JsonRpcMessage.Request r ? r.id() : null));
    }

    private boolean tryDirect(JsonRpcMessage message, byte[] bytes) {
        OutputStream o = out;
        int n = bytes.length + 1;
        // cheap checks first (racy, rechecked under the lock): a queued message, a full-looking pipe, a large message
        if (o == null || closing || directBroken || unwritten.get() != 0 || n > DIRECT_ROOM
                || written - consumed + n > DIRECT_ROOM || !writeLock.tryLock()) {
            return false;
        }
        try {
            if (closing || directBroken || unwritten.get() != 0 || written - consumed + n > DIRECT_ROOM) {
                return false;
            }
            trace(bytes);
            noteRequest(message instanceof JsonRpcMessage.Request r ? r.id() : null, n);
            try {
                o.write(bytes);
                o.write('\n');
                o.flush();
            } catch (IOException e) {
                // the pipe is broken: the writer thread's attempt fails the same way and reports it
                directBroken = true;
                return false;
            }
            written += n;
            directCount.incrementAndGet();
            return true;
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Records a request about to be written, {@code n} bytes with its newline (under {@link #writeLock}, before the
     * write: its answer may be fast); nothing for a message that is not a request ({@code id} null).
     */
    private void noteRequest(RequestId id, int n) {
        if (id != null) {
            lastRequest = new Written(id, written + n);
        }
    }

    /**
     * Called by the stdout reader for every answer ({@code result} or {@code error}) the child sent: an answer to the
     * last request written proves that the child read stdin up to that request's end. Never blocks.
     *
     * @param id the id the answer names
     */
    void noteAnswered(RequestId id) {
        Written w = lastRequest;
        if (w != null && w.end > consumed && w.id.equals(id)) {
            consumed = w.end; // only the reader thread writes it
        }
    }

    /**
     * Queues one encoded message for the writer thread and returns at once.
     *
     * @param q the message as UTF-8 JSON (without its newline), and its id when it is a request
     * @throws McpTransportException if the child is not reading its stdin: more than the limit of bytes is queued
     */
    private void enqueue(Queued q) {
        long queued = queuedBytes.addAndGet(q.bytes.length);
        if (queued > maxQueuedBytes) {
            queuedBytes.addAndGet(-q.bytes.length);
            throw new McpTransportException(config.programName() + " is not reading its stdin: " + queued
                    + " bytes are queued (limit " + maxQueuedBytes + ")");
        }
        unwritten.incrementAndGet();
        outQueue.add(q);
    }

    /** Tells the writer to close stdin once it wrote what is queued before this call. */
    void closeStdin() {
        closing = true;
        unwritten.incrementAndGet();
        outQueue.add(POISON);
    }

    private void trace(byte[] b) {
        if (WIRE.isLoggable(Level.TRACE)) {
            WIRE.log(Level.TRACE, "-> " + config.programName() + ": " + new String(b, StandardCharsets.UTF_8));
        }
    }

    /**
     * Writes the queue to the attached stdin until told to close it, interrupted or failing, then closes it (the pipe
     * thread's task). Never throws: a write failure fails the connection unless the child exits soon.
     */
    void run() {
        OutputStream o = out;
        List<Queued> batch = new ArrayList<>();
        try {
            boolean stop = false;
            while (!stop) {
                batch.add(outQueue.take());
                outQueue.drainTo(batch);
                writeLock.lock();
                try {
                    long bytes = 0;
                    for (Queued q : batch) {
                        if (q == POISON) {
                            stop = true;
                            break;
                        }
                        byte[] b = q.bytes;
                        trace(b);
                        noteRequest(q.request, b.length + 1);
                        o.write(b);
                        o.write('\n');
                        written += b.length + 1;
                        bytes += b.length;
                    }
                    o.flush();
                    queuedBytes.addAndGet(-bytes);
                    unwritten.addAndGet(-batch.size());
                } finally {
                    writeLock.unlock();
                }
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
                o.close();
            } catch (IOException ignored) {
                // the child is gone
            }
        }
    }
}
