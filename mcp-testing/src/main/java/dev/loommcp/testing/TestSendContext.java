package dev.loommcp.testing;

import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.SendContext;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SendContext} for tests of a transport, standing in for the core's request scope: a deadline, cancel hooks
 * run by {@link #cancel()}, and the threads the transport starts for the send ({@link #fork}), recorded so a test can
 * check that none is left behind, interrupted on {@link #cancel()} and on {@link #end()} as the core's scope does, and
 * refused once the request has ended.
 *
 * <p>Like the core's context, it does not watch its deadline: {@link #isCancelled()} turns {@code true} only through
 * {@link #cancel()}, which in the core its deadline thread calls when the deadline passes. A test of what a transport
 * does at the deadline calls {@link #cancel()} itself once {@link #deadline()} has expired.
 *
 * <pre>{@code
 * TestSendContext ctx = TestSendContext.of(1).sender(Thread.currentThread());
 * ... transport.send(request, ctx) on another thread ...
 * ctx.cancel();                                   // runs the transport's onCancel hooks, interrupts its threads
 * assertTrue(ctx.forkedEnded(Duration.ofSeconds(10)));
 * }</pre>
 *
 * <p>The forked threads are loom-mcp's tracked virtual threads, named {@code mcp-<purpose>-<n>}, so {@link LeakCheck}
 * sees them. Thread-safe: the transport may call it from any thread, and a test may cancel it from another.
 */
public final class TestSendContext implements SendContext {

    private static final System.Logger LOG = System.getLogger(TestSendContext.class.getName());

    /** The deadline of {@link #of(long)} and {@link #none()}: 30 seconds after creation. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Deadline deadline;
    private final @Nullable RequestId id;
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();
    private final List<Thread> forked = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    private volatile @Nullable Thread sender;
    private volatile @Nullable RequestRouting routing;
    private volatile boolean callerWaits;
    private volatile boolean ended;

    /**
     * Creates a context whose deadline is {@code timeout} from now.
     *
     * @param id      the request's id, or {@code null} for a notification or a response
     * @param timeout the time left until the deadline; positive
     * @throws NullPointerException     if {@code timeout} is {@code null}
     * @throws IllegalArgumentException if {@code timeout} is zero or negative (for a deadline that has passed, give
     *                                  an expired {@link Deadline} to {@link #TestSendContext(RequestId, Deadline)})
     */
    public TestSendContext(@Nullable RequestId id, Duration timeout) {
        this(id, Deadline.after(positive(timeout)));
    }

    private static Duration positive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return timeout;
    }

    /**
     * Creates a context with the given deadline.
     *
     * @param id       the request's id, or {@code null} for a notification or a response
     * @param deadline the deadline
     * @throws NullPointerException if {@code deadline} is {@code null}
     */
    public TestSendContext(@Nullable RequestId id, Deadline deadline) {
        this.id = id;
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    /**
     * Returns a context for request {@code id} (an integer id) with a deadline {@link #DEFAULT_TIMEOUT} from now.
     *
     * @param id the request id, zero or positive as the core's ids (for another id use
     *           {@link #TestSendContext(RequestId, Duration)})
     * @return a new context
     * @throws IllegalArgumentException if {@code id} is negative
     */
    public static TestSendContext of(long id) {
        if (id < 0) {
            throw new IllegalArgumentException("id must not be negative: " + id);
        }
        return new TestSendContext(RequestId.of(id), DEFAULT_TIMEOUT);
    }

    /**
     * Returns a context for a message that is no request (a notification, a response), with a deadline
     * {@link #DEFAULT_TIMEOUT} from now.
     *
     * @return a new context
     */
    public static TestSendContext none() {
        return new TestSendContext(null, DEFAULT_TIMEOUT);
    }

    /**
     * Makes the send a modern-era one (MCP 2026-07-28), as the core does by putting routing on its context.
     *
     * @param r the routing, or {@code null} for a 2025-era send
     * @return this
     */
    public TestSendContext routing(@Nullable RequestRouting r) {
        this.routing = r;
        return this;
    }

    /**
     * Says that the caller blocks for the answer right after the send, as the core does for a plain request
     * ({@link #callerWaits()} becomes {@code true}).
     *
     * @return this
     */
    public TestSendContext waiting() {
        this.callerWaits = true;
        return this;
    }

    /**
     * Remembers the sending thread, which {@link #cancel()} interrupts, as the core's scope interrupts the caller.
     *
     * @param t the thread, or {@code null} for none
     * @return this
     */
    public TestSendContext sender(@Nullable Thread t) {
        this.sender = t;
        return this;
    }

    /**
     * Ends the request, as the core's scope does when it closes: {@link #fork} refuses from now on, and every thread
     * started through {@link #fork} is interrupted. It runs no cancel hook and does not wait for the threads (the core
     * does, when its scope closes): {@link #forkedEnded} tells whether they ended on the interrupt.
     *
     * @return this
     */
    public TestSendContext end() {
        this.ended = true; // before the interrupts: a fork racing the end either is refused or is interrupted here
        forked.forEach(Thread::interrupt);
        return this;
    }

    /**
     * Cancels the request as the core does: marks it cancelled, interrupts the {@link #sender(Thread) sender}, runs
     * every cancel hook on this thread (in registration order; a hook registered later runs at once), then interrupts
     * the forked threads. A hook that throws is logged (at WARNING) and the others still run, as in the core.
     * Idempotent only for the flag: a second call runs the hooks again.
     */
    public void cancel() {
        cancelled = true;
        Thread t = sender;
        if (t != null) {
            t.interrupt();
        }
        for (Runnable r : actions) {
            UserCode.run(LOG, "a cancel action of the transport", r);
        }
        forked.forEach(Thread::interrupt); // after the cancel actions, as the core's request scope does
    }

    /**
     * Returns the threads the transport started through {@link #fork} for this send.
     *
     * @return a snapshot, in start order
     */
    public List<Thread> forked() {
        return List.copyOf(forked);
    }

    /**
     * Waits until every thread started for this send has ended, at most {@code timeout} in all.
     *
     * @param timeout the bound
     * @return whether all ended
     * @throws InterruptedException if interrupted while waiting
     * @throws NullPointerException if {@code timeout} is {@code null}
     */
    public boolean forkedEnded(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        long end = System.nanoTime() + timeout.toNanos();
        for (Thread t : forked) {
            t.join(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
        }
        return forked.stream().noneMatch(Thread::isAlive);
    }

    /**
     * Returns what {@link #waiting()} set.
     *
     * @return whether the caller blocks for the answer
     */
    @Override
    public boolean callerWaits() {
        return callerWaits;
    }

    /**
     * Returns what {@link #routing(RequestRouting)} set.
     *
     * @return the routing, empty for a 2025-era send
     */
    @Override
    public Optional<RequestRouting> routing() {
        return Optional.ofNullable(routing);
    }

    /**
     * Returns the deadline given at creation.
     *
     * @return the deadline
     */
    @Override
    public Deadline deadline() {
        return deadline;
    }

    /**
     * Returns the id given at creation.
     *
     * @return the request id, or {@code null}
     */
    @Override
    public @Nullable RequestId requestId() {
        return id;
    }

    /**
     * Registers a cancel hook; runs it at once, on this thread, if the request is already cancelled (a hook that then
     * throws is logged, as in {@link #cancel()}).
     *
     * @param action the hook
     * @throws NullPointerException if {@code action} is {@code null}
     */
    @Override
    public void onCancel(Runnable action) {
        actions.add(Objects.requireNonNull(action, "action"));
        if (cancelled) {
            UserCode.run(LOG, "a cancel action of the transport", action);
        }
    }

    /**
     * Returns whether {@link #cancel()} was called; a passed deadline alone does not make it {@code true} (see the
     * class comment).
     *
     * @return whether cancelled
     */
    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Starts a loom-mcp virtual thread named {@code mcp-<purpose>-<n>} for the send and records it, unless the request
     * has {@link #end()}ed.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @return the started thread
     * @throws IllegalStateException if the request has ended
     * @throws NullPointerException  if an argument is {@code null}
     * @see McpTransport#send
     */
    @Override
    public Thread fork(String purpose, Runnable task) {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(task, "task");
        if (ended) {
            throw new IllegalStateException("the request has ended");
        }
        Thread t = McpThreads.newThread(purpose, task);
        forked.add(t);
        t.start();
        if (ended) {
            t.interrupt(); // the request ended while it was being started: end() may have missed it
        }
        return t;
    }

    @Override
    public String toString() {
        return "TestSendContext[" + id + (cancelled ? ", cancelled" : "") + (ended ? ", ended" : "") + "]";
    }
}
