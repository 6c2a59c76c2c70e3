package dev.loommcp.testing;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.TransportSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TransportSink} that records what a transport delivers, standing in for the client in a test of a
 * transport: open the transport with it, then read the delivered messages in order with {@link #next(Duration)}, or
 * all of them with {@link #messages()}.
 *
 * <p>Every message goes both to {@link #messages()} (everything so far) and to a queue that {@link #next} consumes,
 * so a test can both wait for the next message and look back at all of them. The waiting methods fail with
 * {@link AssertionError} after their bound, naming the close cause if the transport reported one.
 *
 * <p>Thread-safe: the transport may call it from any thread; the test may read it from another.
 */
public final class RecordingSink implements TransportSink {

    /** The bound of {@link #next()}, {@link #nextResponse()}, {@link #responseTo} and {@link #awaitClosed()}. */
    public static final Duration SOON = Duration.ofSeconds(20);

    private final LinkedBlockingQueue<JsonRpcMessage> queue = new LinkedBlockingQueue<>();
    private final List<JsonRpcMessage> all = new CopyOnWriteArrayList<>();
    private final List<String> skipped = new CopyOnWriteArrayList<>();
    private final Map<RequestId, McpException> sendFailures = new ConcurrentHashMap<>();
    private final AtomicInteger closedCalls = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile @Nullable McpTransportException cause;
    private volatile Consumer<JsonRpcMessage> onMessage = m -> { };

    /** Creates an empty sink. */
    public RecordingSink() {
    }

    /**
     * Records the message, then runs the hook set with {@link #onMessage(Consumer)} on the calling thread.
     *
     * @param message the message
     */
    @Override
    public void onMessage(JsonRpcMessage message) {
        all.add(message);
        queue.add(message);
        onMessage.accept(message);
    }

    /**
     * Records the problem.
     *
     * @param problem the description
     */
    @Override
    public void onSkipped(String problem) {
        skipped.add(problem);
    }

    /**
     * Records a send failure the transport reports for a request.
     *
     * @param id    the request's id
     * @param cause what went wrong
     */
    @Override
    public void onSendFailed(RequestId id, McpException cause) {
        sendFailures.put(id, cause);
    }

    /**
     * Waits for the transport to report that the request {@code id} failed.
     *
     * @param id      the request's id
     * @param timeout how long to wait
     * @return the failure
     * @throws AssertionError       if none is reported within {@code timeout}
     * @throws InterruptedException if interrupted while waiting
     */
    public McpException awaitSendFailure(RequestId id, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            McpException e = sendFailures.get(id);
            if (e != null) {
                return e;
            }
            if (System.nanoTime() - end >= 0) {
                throw new AssertionError("no send failure reported for request " + id + " within " + timeout);
            }
            Thread.sleep(5);
        }
    }

    /**
     * Returns the send failures reported so far, by request id.
     *
     * @return a snapshot
     */
    public Map<RequestId, McpException> sendFailures() {
        return Map.copyOf(sendFailures);
    }

    /**
     * Records the close and its cause, and counts the call.
     *
     * @param cause the cause, or {@code null} for a clean end
     */
    @Override
    public void onClosed(@Nullable McpTransportException cause) {
        this.cause = cause;
        closedCalls.incrementAndGet();
        closed.countDown();
    }

    /**
     * Sets an action run on the transport's thread for each delivered message, after it was recorded (for example to
     * answer a server request). Replaces any earlier hook.
     *
     * @param hook the action
     * @throws NullPointerException if {@code hook} is {@code null}
     */
    public void onMessage(Consumer<JsonRpcMessage> hook) {
        this.onMessage = Objects.requireNonNull(hook, "hook");
    }

    /**
     * Forgets the messages recorded so far, both for {@link #messages()} and for {@link #next}; the counters, the
     * skipped problems and the close are kept.
     */
    public void clear() {
        all.clear();
        queue.clear();
    }

    /**
     * Returns every message delivered so far, in order (whether or not {@link #next} consumed it).
     *
     * @return an immutable snapshot
     */
    public List<JsonRpcMessage> messages() {
        return List.copyOf(all);
    }

    /**
     * Returns the problems reported through {@link #onSkipped}, in order.
     *
     * @return an immutable snapshot
     */
    public List<String> skipped() {
        return List.copyOf(skipped);
    }

    /**
     * Returns how often {@link #onClosed} was called (a transport should call it at most once).
     *
     * @return the count
     */
    public int closedCalls() {
        return closedCalls.get();
    }

    /**
     * Returns the cause of the last {@link #onClosed} call.
     *
     * @return the cause, or empty if not closed or closed cleanly
     */
    public java.util.Optional<McpTransportException> closeCause() {
        return java.util.Optional.ofNullable(cause);
    }

    /**
     * Takes the next delivered message not yet taken.
     *
     * @param timeout how long to wait
     * @return the message
     * @throws AssertionError       if none comes within {@code timeout}
     * @throws InterruptedException if interrupted while waiting
     */
    public JsonRpcMessage next(Duration timeout) throws InterruptedException {
        JsonRpcMessage m = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (m == null) {
            McpTransportException c = cause;
            throw new AssertionError("no message within " + timeout + (c != null ? "; transport closed: " + c : ""));
        }
        return m;
    }

    /**
     * Takes the next delivered message, waiting up to {@link #SOON}.
     *
     * @return the message
     * @throws AssertionError       if none comes in time
     * @throws InterruptedException if interrupted while waiting
     */
    public JsonRpcMessage next() throws InterruptedException {
        return next(SOON);
    }

    /**
     * Takes messages until a successful response, skipping notifications and requests.
     *
     * @return the response
     * @throws AssertionError       if an error response comes first, or nothing within {@link #SOON} per message
     * @throws InterruptedException if interrupted while waiting
     */
    public JsonRpcMessage.Response nextResponse() throws InterruptedException {
        while (true) {
            JsonRpcMessage m = next();
            if (m instanceof JsonRpcMessage.Response r) {
                return r;
            }
            if (m instanceof JsonRpcMessage.ErrorResponse e) {
                throw new AssertionError("error response: " + e);
            }
        }
    }

    /**
     * Takes messages until the successful response with the given id, skipping anything else.
     *
     * @param id the request id
     * @return the response
     * @throws AssertionError       as {@link #nextResponse()}
     * @throws InterruptedException if interrupted while waiting
     */
    public JsonRpcMessage.Response responseTo(RequestId id) throws InterruptedException {
        while (true) {
            JsonRpcMessage.Response r = nextResponse();
            if (r.id().equals(id)) {
                return r;
            }
        }
    }

    /**
     * Waits for {@link #onClosed}.
     *
     * @param timeout how long to wait
     * @return the cause, or {@code null} for a clean end
     * @throws AssertionError       if not closed within {@code timeout}
     * @throws InterruptedException if interrupted while waiting
     */
    public @Nullable McpTransportException awaitClosed(Duration timeout) throws InterruptedException {
        if (!closed.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new AssertionError("onClosed not called within " + timeout);
        }
        return cause;
    }

    /**
     * Waits up to {@link #SOON} for {@link #onClosed}.
     *
     * @return the cause, or {@code null} for a clean end
     * @throws AssertionError       if not closed in time
     * @throws InterruptedException if interrupted while waiting
     */
    public @Nullable McpTransportException awaitClosed() throws InterruptedException {
        return awaitClosed(SOON);
    }
}
