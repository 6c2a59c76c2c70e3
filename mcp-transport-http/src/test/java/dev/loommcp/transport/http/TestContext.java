package dev.loommcp.transport.http;

import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.SendContext;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** A send context standing in for the core's request scope: a deadline and cancel hooks run by {@link #cancel}. */
final class TestContext implements SendContext {
    private final Deadline deadline;
    private final RequestId id;
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    private volatile Thread sender;
    private volatile RequestRouting routing;
    private volatile boolean callerWaits;

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
    }
}
