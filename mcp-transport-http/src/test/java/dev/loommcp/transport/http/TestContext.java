package dev.loommcp.transport.http;

import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.Deadline;
import dev.loommcp.spi.SendContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A send context standing in for the core's request scope: a deadline and cancel hooks run by {@link #cancel}. */
final class TestContext implements SendContext {
    private final Deadline deadline;
    private final RequestId id;
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();
    private volatile boolean cancelled;
    private volatile Thread sender;

    TestContext(RequestId id, Duration timeout) {
        this.id = id;
        this.deadline = Deadline.after(timeout);
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
