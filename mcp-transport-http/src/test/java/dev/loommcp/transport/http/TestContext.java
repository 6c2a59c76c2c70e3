package dev.loommcp.transport.http;

import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.SendContext;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A send context standing in for the core's request scope: a deadline, cancel hooks run by {@link #cancel}, and the
 * threads the transport starts for the send ({@link #fork}), tracked so that a test can check that none is left
 * behind, interrupted on {@link #cancel} as the core's scope does, and refused once the request has {@link #end}ed.
 */
final class TestContext implements SendContext {
    private final Deadline deadline;
    private final RequestId id;
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    private volatile Thread sender;
    private volatile RequestRouting routing;
    private volatile boolean callerWaits;
    private volatile boolean ended;
    private final List<Thread> forked = new CopyOnWriteArrayList<>();

    TestContext(RequestId id, Duration timeout) {
        this(id, Deadline.after(timeout));
    }

    TestContext(RequestId id, Deadline deadline) {
        this.id = id;
        this.deadline = deadline;
    }

    /** Makes the send a modern-era one (MCP 2026-07-28), as the core does by putting routing on its context. */
    TestContext routing(RequestRouting r) {
        this.routing = r;
        return this;
    }

    /** Says that the caller blocks for the answer right after the send, as the core does for a plain request. */
    TestContext waiting() {
        this.callerWaits = true;
        return this;
    }

    @Override
    public boolean callerWaits() {
        return callerWaits;
    }

    @Override
    public Optional<RequestRouting> routing() {
        return Optional.ofNullable(routing);
    }

    static TestContext of(long id) {
        return new TestContext(RequestId.of(id), Duration.ofSeconds(30));
    }

    static TestContext none() {
        return new TestContext(null, Duration.ofSeconds(30));
    }

    /** Remembers the sending thread so that {@link #cancel} interrupts it, like the core's scope does. */
    TestContext sender(Thread t) {
        this.sender = t;
        return this;
    }

    @Override
    public Deadline deadline() {
        return deadline;
    }

    @Override
    public RequestId requestId() {
        return id;
    }

    @Override
    public void onCancel(Runnable action) {
        actions.add(action);
        if (cancelled) {
            action.run();
        }
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
        Thread t = sender;
        if (t != null) {
            t.interrupt();
        }
        for (Runnable r : actions) {
            r.run();
        }
        forked.forEach(Thread::interrupt); // after the cancel actions, as the core's request scope does
    }

    /** Starts a tracked virtual thread named {@code mcp-<purpose>-test}, unless the request has ended. */
    @Override
    public Thread fork(String purpose, Runnable task) {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(task, "task");
        if (ended) {
            throw new IllegalStateException("the request has ended");
        }
        Thread t = Thread.ofVirtual().name("mcp-" + purpose + "-test").unstarted(task);
        forked.add(t);
        t.start();
        return t;
    }

    /** Ends the request, as the core's scope does when it closes: {@link #fork} refuses from now on. */
    TestContext end() {
        this.ended = true;
        return this;
    }

    /** The threads the transport started for this send. */
    List<Thread> forked() {
        return List.copyOf(forked);
    }

    /**
     * Waits until every thread started for this send has ended, at most {@code timeout}.
     *
     * @return whether all ended
     */
    boolean forkedEnded(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        for (Thread t : forked) {
            t.join(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
        }
        return forked.stream().noneMatch(Thread::isAlive);
    }
}
