package dev.loommcp.transport.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A response body read by one blocking reader with a per-read idle bound, that any thread can abort at once.
 *
 * <p>It requests one chunk list at a time from the HTTP client (so at most a couple of chunks are buffered), and
 * {@link #close()} cancels the subscription (the client then closes the connection) and wakes the reader.
 */
final class StreamBody implements HttpResponse.BodySubscriber<StreamBody> {

    /** Thrown when no byte arrived within the idle bound. */
    static final class IdleTimeoutException extends IOException {
        IdleTimeoutException() {
            super("no data within the idle timeout");
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

    private static final Object END = new Object();
    private static final Object CLOSED = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
    private volatile boolean closed;
    private boolean ended;
    private List<ByteBuffer> current;
    private int index;

    @Override
    public CompletionStage<StreamBody> getBody() {
        return CompletableFuture.completedStage(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        if (!subscription.compareAndSet(null, s) || closed) {
            s.cancel();
            return;
        }
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        queue.add(item);
    }

    @Override
    public void onError(Throwable throwable) {
        queue.add(new Failure(throwable));
    }

    @Override
    public void onComplete() {
        queue.add(END);
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

    /** Thrown by {@link #readAll} when the body is too large. */
    static final class TooLargeException extends IOException {
        TooLargeException(int max) {
            super("response body larger than the maximum of " + max + " bytes");
        }
    }

    /** Whether the body was read to its end. */
    boolean ended() {
        return ended;
    }

    /** Aborts the body: cancels the subscription and wakes the reader. Idempotent, never blocks. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        Flow.Subscription s = subscription.getAndSet(NOOP);
        if (s != null && s != NOOP) {
            s.cancel();
        }
        queue.add(CLOSED);
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
