package dev.loommcp.transport.http;

import dev.loommcp.internal.net.ContentCoding;
import dev.loommcp.Deadline;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A response body read by one blocking reader with a per-read idle bound, that any thread can abort at once.
 *
 * <p>It requests one chunk list at a time from the HTTP client (so at most a couple of chunks are buffered), and
 * {@link #close()} cancels the subscription (the client then closes the connection) and wakes the reader.
 * {@link #finish()} instead lets the rest of a body whose answer arrived go by, dropped unread (at most
 * {@value #MAX_DRAIN_BYTES} bytes for at most {@value #DRAIN_MILLIS} ms, then it cancels), so that the client can
 * keep the connection for the next request. A body the client completed is never cancelled: cancelling after the
 * client returned the connection to its pool would close it under another request.
 *
 * <p>A body made {@linkplain #StreamBody(boolean) whole first} is taken in at once instead, and the client's
 * {@code send} returns only when it ended (or was closed): the caller is then woken once per answer rather than once
 * for the headers and again for the body. Only for bodies whose size the headers bound, read by a caller whose
 * deadline the core enforces (see {@link Exchange}).
 */
final class StreamBody implements HttpResponse.BodySubscriber<StreamBody> {

    /** Thrown when no byte arrived within the idle bound. */
    static final class IdleTimeoutException extends IOException {
        IdleTimeoutException() {
            super("no data within the idle timeout");
        }
    }

    /**
     * Thrown when the body cannot be decoded: a {@code Content-Encoding} this client does not decode, or compressed
     * data that is corrupt. Its message says which, for the caller's error.
     */
    static final class CodingException extends IOException {
        CodingException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Thrown when the body was closed locally while being read. */
    static final class ClosedException extends IOException {
        ClosedException() {
            super("response stream closed");
        }
    }

    private record Failure(Throwable cause) {
    }

    /** The most bytes {@link #finish()} lets go by before it cancels. */
    static final int MAX_DRAIN_BYTES = 64 * 1024;
    /** How long {@link #finish()} waits for the end of the body before it cancels, in milliseconds. */
    static final long DRAIN_MILLIS = 100;

    private static final Object END = new Object();
    private static final Object CLOSED = new Object();
    private static final long DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
    /**
     * The bodies being drained, in the order their drains began, which (each drain lasting the same time) is the
     * order in which they end: one timer on the JDK's shared delay thread serves them all, set for the oldest, so
     * that a drain costs no timer of its own (at thousands of SSE answers a second, a timer each was measurable).
     */
    private static final ConcurrentLinkedQueue<StreamBody> DRAINS = new ConcurrentLinkedQueue<>();
    /** Whether the drains' timer is set (or its task is running). */
    private static final AtomicBoolean DRAIN_TIMER_SET = new AtomicBoolean();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
    private volatile boolean closed;
    /** Whether the client completed the body (onComplete or onError): then nothing is ever cancelled. */
    private volatile boolean complete;
    /** Whether the rest of the body is dropped as it comes ({@link #finish()}). */
    private volatile boolean draining;
    /** Bytes dropped while draining; written only by the client's (serialized) onNext. */
    private long drained;
    /** When the drain {@link #finish()} began must end; written before it is queued. */
    private Deadline drainEnds = Deadline.NONE;
    private boolean ended;
    private List<ByteBuffer> current;
    private int index;

    /** When taken whole first: completed when the body ended, failed or was closed; else {@code null}. */
    private final CompletableFuture<StreamBody> whole;
    /**
     * The answer's content coding ({@link ContentCoding#of}), or {@code null} for none: then {@link #read} hands out
     * the client's own buffers, untouched (the common path costs no copy).
     */
    private final String coding;
    /** The decoding stream over {@link #readRaw}, made at the first {@link #read} of an encoded body. */
    private InputStream decoded;
    /** The raw chunk the decoder is taking bytes from. */
    private ByteBuffer raw;
    /** The idle bound of the {@link #read} in progress, for the raw reads the decoder makes. */
    private long rawIdleNanos;
    /** Whether the decoded bytes ended (the raw ones may have ended before: the decoder holds the rest). */
    private boolean decodedEnded;

    /** A body read as it comes: {@link #getBody()} completes at once (at the response headers). */
    StreamBody() {
        this(false);
    }

    /**
     * A body read as it comes, or, {@code wholeFirst}, one whose {@link #getBody()} completes only once the client
     * completed the body (or it failed or was closed), and which asks the client for all of it at once: the caller
     * bounds its size (its {@code Content-Length}) before it chooses this.
     *
     * @param wholeFirst whether the body is taken in whole before the client's {@code send} returns
     */
    StreamBody(boolean wholeFirst) {
        this(wholeFirst, null);
    }

    /**
     * As {@link #StreamBody(boolean)}, for a body in a content coding: {@link #read} returns the decoded bytes.
     *
     * @param coding what {@link ContentCoding#of} made of the answer's {@code Content-Encoding}, or {@code null}
     */
    StreamBody(boolean wholeFirst, String coding) {
        this.whole = wholeFirst ? new CompletableFuture<>() : null;
        this.coding = coding;
    }

    /** Whether the body is in a content coding: its {@code Content-Length} is not the size of what is read. */
    boolean encoded() {
        return coding != null;
    }

    @Override
    public CompletionStage<StreamBody> getBody() {
        return whole != null ? whole : CompletableFuture.completedStage(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        if (!subscription.compareAndSet(null, s) || closed) {
            s.cancel();
            releaseWhole();
            return;
        }
        s.request(whole != null ? Long.MAX_VALUE : 1);
    }

    /** Lets a whole-first body's {@code send} return: the body ended, failed or was closed. */
    private void releaseWhole() {
        CompletableFuture<StreamBody> w = whole;
        if (w != null) {
            w.complete(this);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        if (draining) {
            for (ByteBuffer b : item) {
                drained += b.remaining();
            }
            if (drained > MAX_DRAIN_BYTES) {
                cancel();
            }
            return;
        }
        queue.add(item);
    }

    @Override
    public void onError(Throwable throwable) {
        complete = true;
        queue.add(new Failure(throwable));
        releaseWhole();
    }

    @Override
    public void onComplete() {
        complete = true;
        queue.add(END);
        releaseWhole();
    }

    /**
     * Returns the next chunk of bytes, waiting at most {@code idleNanos} for it.
     *
     * @param idleNanos how long to wait for a byte; {@code Long.MAX_VALUE} waits without bound
     * @return a buffer with remaining bytes, or {@code null} at the end of the body
     * @throws IdleTimeoutException when nothing arrived in time
     * @throws ClosedException      when {@link #close()} was called
     * @throws IOException          when the connection failed
     * @throws InterruptedException when the reader is interrupted
     */
    ByteBuffer read(long idleNanos) throws IOException, InterruptedException {
        return coding == null ? readRaw(idleNanos) : readDecoded(idleNanos);
    }

    /** The most decoded bytes one {@link #read} returns: what a reader's size bound can overshoot by. */
    static final int DECODED_CHUNK = 16 * 1024;

    /**
     * {@link #read} of an encoded body: inflates what arrived into a new buffer of at most {@value #DECODED_CHUNK}
     * bytes, reading more raw bytes (each read bounded by {@code idleNanos}) only when the decoder needs them. The
     * reader's size bound thus stops the inflating within one chunk of it: a small body that inflates without end
     * (a "zip bomb") costs the bound, not memory.
     *
     * @throws CodingException for a coding this client does not decode, or corrupt compressed data
     */
    private ByteBuffer readDecoded(long idleNanos) throws IOException, InterruptedException {
        if (ContentCoding.isUnsupported(coding)) {
            throw new CodingException(ContentCoding.unsupported(coding), null);
        }
        if (decodedEnded) {
            return null;
        }
        if (decoded == null) {
            decoded = ContentCoding.decode(new RawBytes(), coding);
        }
        rawIdleNanos = idleNanos;
        byte[] out = new byte[DECODED_CHUNK];
        int n;
        try {
            n = decoded.read(out, 0, out.length);
        } catch (InterruptedIOException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            throw e;
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new CodingException("the " + coding + "-encoded answer is corrupt or cut short ("
                    + Exchange.reason(e) + ")", e);
        }
        if (n < 0) {
            decodedEnded = true;
            decoded.close(); // on the reader's thread: frees the inflater now (its cleaner would, later)
            return null;
        }
        return ByteBuffer.wrap(out, 0, n);
    }

    /** The raw bytes of an encoded body, as the decoder reads them: blocking reads of {@link #readRaw}. */
    private final class RawBytes extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (raw == null || !raw.hasRemaining()) {
                try {
                    raw = readRaw(rawIdleNanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // readDecoded turns it back into InterruptedException
                    throw new InterruptedIOException();
                }
                if (raw == null) {
                    return -1;
                }
            }
            int n = Math.min(len, raw.remaining());
            raw.get(b, off, n);
            return n;
        }

        @Override
        public int available() {
            ByteBuffer r = raw;
            return r == null ? 0 : r.remaining();
        }
    }

    /** {@link #read} of the bytes as they came. */
    private ByteBuffer readRaw(long idleNanos) throws IOException, InterruptedException {
        while (true) {
            if (closed) {
                throw new ClosedException();
            }
            if (ended) {
                return null;
            }
            if (current != null) {
                while (index < current.size()) {
                    ByteBuffer b = current.get(index++);
                    if (b.hasRemaining()) {
                        return b;
                    }
                }
                current = null;
                Flow.Subscription s = subscription.get();
                if (s != null) {
                    s.request(1);
                }
            }
            Object item = idleNanos == Long.MAX_VALUE ? queue.take() : queue.poll(idleNanos, TimeUnit.NANOSECONDS);
            if (item == null) {
                throw new IdleTimeoutException();
            }
            if (item == END) {
                ended = true;
                return null;
            }
            if (item == CLOSED) {
                throw new ClosedException();
            }
            if (item instanceof Failure f) {
                ended = true;
                if (closed) {
                    throw new ClosedException();
                }
                throw f.cause() instanceof IOException io ? io : new IOException(f.cause());
            }
            @SuppressWarnings("unchecked")
            List<ByteBuffer> list = (List<ByteBuffer>) item;
            current = list;
            index = 0;
        }
    }

    /**
     * Reads the whole rest of the body.
     *
     * @param maxBytes  the most bytes accepted
     * @param idleNanos the bound of each read, asked before each read (it may shrink as a deadline nears)
     * @return the bytes
     * @throws TooLargeException when the body is larger than {@code maxBytes}
     * @throws IOException          as {@link #read(long)}
     * @throws InterruptedException when interrupted
     */
    byte[] readAll(int maxBytes, java.util.function.LongSupplier idleNanos) throws IOException, InterruptedException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ByteBuffer b;
        while ((b = read(idleNanos.getAsLong())) != null) {
            if (out.size() + b.remaining() > maxBytes) {
                close();
                throw new TooLargeException(maxBytes);
            }
            byte[] chunk = new byte[b.remaining()];
            b.get(chunk);
            out.write(chunk, 0, chunk.length);
        }
        return out.toByteArray();
    }

    /**
     * Reads the first bytes of the body, for an error message: up to {@code maxBytes}, its end, or until
     * {@code waitNanos} passed, whichever comes first. Never fails: what could not be read is left out.
     *
     * @return what was read (possibly nothing)
     * @throws InterruptedException when interrupted
     */
    byte[] readPrefix(int maxBytes, long waitNanos) throws InterruptedException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        Deadline end = Deadline.after(Duration.ofNanos(waitNanos));
        try {
            ByteBuffer b;
            while (out.size() < maxBytes && (b = read(Math.max(1, end.remainingNanos()))) != null) {
                int n = Math.min(b.remaining(), maxBytes - out.size());
                byte[] chunk = new byte[n];
                b.get(chunk);
                out.write(chunk, 0, n);
            }
        } catch (IOException e) {
            // an idle, closed, broken or undecodable body: the excerpt is what came before
        }
        return out.toByteArray();
    }

    /** Thrown by {@link #readAll} when the body is too large. */
    static final class TooLargeException extends IOException {
        TooLargeException(int max) {
            super("response body larger than the maximum of " + max + " bytes");
        }
    }

    /** Whether the body was read to its end. */
    boolean ended() {
        return coding == null ? ended : decodedEnded;
    }

    /**
     * Aborts the body: cancels the subscription (unless the client completed the body; this also ends a drain
     * {@link #finish()} started) and wakes the reader. Idempotent, never blocks.
     */
    void close() {
        if (!complete) {
            cancel();
        }
        if (closed) {
            return;
        }
        closed = true;
        queue.add(CLOSED);
        releaseWhole();
    }

    /**
     * Ends reading a body whose answer arrived: wakes the reader like {@link #close()}, but lets the rest of the body
     * go by, dropped, so that the client can return the connection to its pool; it cancels when more than
     * {@value #MAX_DRAIN_BYTES} bytes come or the body has not ended within {@value #DRAIN_MILLIS} ms. Idempotent,
     * never blocks; {@link #close()} afterwards cancels a drain still going on.
     */
    void finish() {
        if (closed) {
            return;
        }
        closed = true;
        if (!complete) {
            draining = true;
            Flow.Subscription s = subscription.get();
            if (s != null && s != NOOP) {
                s.request(Long.MAX_VALUE);
                if (!complete) {
                    drainEnds = Deadline.after(Duration.ofNanos(DRAIN_NANOS));
                    DRAINS.add(this);
                    if (DRAIN_TIMER_SET.compareAndSet(false, true)) {
                        setDrainTimer(DRAIN_NANOS);
                    }
                }
            }
        }
        queue.clear(); // what the reader did not take is dropped
        queue.add(CLOSED);
        releaseWhole();
    }

    /** The drain's time is up: cancels unless the body ended meanwhile. */
    private void endDrain() {
        if (!complete) {
            cancel();
        }
    }

    private static void setDrainTimer(long nanos) {
        CompletableFuture.delayedExecutor(Math.max(nanos, 0), TimeUnit.NANOSECONDS, Runnable::run)
                .execute(StreamBody::endDrains);
    }

    /**
     * The drains' timer: ends every drain whose time is up (a cancel each: never blocks), then sets the timer for
     * the oldest one left, if any. A drain queued meanwhile sets the timer itself when it finds none set.
     */
    private static void endDrains() {
        StreamBody b;
        while ((b = DRAINS.peek()) != null && b.drainEnds.isExpired()) {
            DRAINS.poll();
            b.endDrain();
        }
        DRAIN_TIMER_SET.set(false);
        // a drain queued after this check finds the timer unset and sets it; one queued before is seen here
        StreamBody oldest = DRAINS.peek();
        if (oldest != null && DRAIN_TIMER_SET.compareAndSet(false, true)) {
            setDrainTimer(oldest.drainEnds.remainingNanos());
        }
    }

    /** Whether {@link #finish()} is letting the rest of the body go by (for tests). */
    boolean draining() {
        return draining && !complete && subscription.get() != NOOP;
    }

    private void cancel() {
        Flow.Subscription s = subscription.getAndSet(NOOP);
        if (s != null && s != NOOP) {
            s.cancel();
        }
    }

    private static final Flow.Subscription NOOP = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };
}
