package dev.loommcp.internal.session.base;

import dev.loommcp.internal.scope.Scope;

import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.RequestRouting;
import dev.loommcp.spi.SendContext;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The per-send context handed to the transport: deadline, id, the modern era's routing facts (absent in the legacy
 * era) and the transport's cancel actions. Thread-safe.
 */
public final class CallContext implements SendContext {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private static final VarHandle HOOKS;
    private static final VarHandle CANCELLED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HOOKS = l.findVarHandle(CallContext.class, "hooks", ConcurrentLinkedQueue.class);
            CANCELLED = l.findVarHandle(CallContext.class, "cancelled", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Deadline deadline;
    private final RequestId id;
    /* made by the first onCancel (most sends register none: a stdio request never does), as is nothing else */
    private volatile ConcurrentLinkedQueue<Runnable> hooks;
    private volatile boolean cancelled;
    private final boolean awaitDelivery;
    private final RequestRouting routing;
    private final Scope<?, ?> forks;
    private volatile boolean completed;
    private volatile boolean callerWaits;
    private volatile boolean accepted;
    private volatile String waitingFor;

    /** A context of a message that waits for nothing, without routing. */
    public CallContext(Deadline deadline, RequestId id) {
        this(deadline, id, false, null);
    }

    /** A context without routing; {@code awaitDelivery} as {@link SendContext#awaitDelivery()} reports it. */
    public CallContext(Deadline deadline, RequestId id, boolean awaitDelivery) {
        this(deadline, id, awaitDelivery, null);
    }

    /**
     * @param routing the modern-era routing of the message, or {@code null} in the legacy era
     */
    public CallContext(Deadline deadline, RequestId id, boolean awaitDelivery, RequestRouting routing) {
        this(deadline, id, awaitDelivery, routing, null);
    }

    /**
     * @param routing the modern-era routing of the message, or {@code null} in the legacy era
     * @param forks   the scope whose forks {@link #fork} starts (the request's; the client's for a message of no
     *                request), or {@code null} for plain threads
     */
    public CallContext(Deadline deadline, RequestId id, boolean awaitDelivery, RequestRouting routing,
                       Scope<?, ?> forks) {
        this.forks = forks;
        this.deadline = deadline;
        this.id = id;
        this.awaitDelivery = awaitDelivery;
        this.routing = routing;
    }

    @Override
    public Optional<RequestRouting> routing() {
        return Optional.ofNullable(routing);
    }

    /** Marks the send as one whose caller blocks for the answer right after it (see {@link #callerWaits()}). */
    public CallContext callerWaits(boolean waits) {
        this.callerWaits = waits;
        return this;
    }

    @Override
    public boolean callerWaits() {
        return callerWaits;
    }

    @Override
    public void markAccepted() {
        accepted = true;
    }

    @Override
    public void waitingFor(String doing) {
        waitingFor = doing;
    }

    /** What the transport said it waits for ({@link #waitingFor(String)}), or {@code null}. */
    public String waitingFor() {
        return waitingFor;
    }

    /** Whether the transport said the server has the request ({@link #markAccepted()}). */
    public boolean accepted() {
        return accepted;
    }

    @Override
    public boolean awaitDelivery() {
        return awaitDelivery;
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
        ConcurrentLinkedQueue<Runnable> q = hooks;
        if (q == null) {
            ConcurrentLinkedQueue<Runnable> made = new ConcurrentLinkedQueue<>();
            q = HOOKS.compareAndSet(this, null, made) ? made : hooks;
        }
        q.add(action);
        if (cancelled && q.remove(action)) {
            UserCode.run(LOG, "a cancel action of the transport", action);
        }
    }

    @Override
    public Thread fork(String purpose, Runnable task) {
        if (forks == null) {
            return SendContext.super.fork(purpose, task);
        }
        Thread t = forks.start(purpose, task, false); // throws once the scope is closed
        if (t == null) {
            throw new IllegalStateException("the request has ended: " + purpose + " not started");
        }
        return t;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    /** The response arrived: a later cancel must not abort the exchange or count as a cancel. */
    public void markCompleted() {
        completed = true;
        ConcurrentLinkedQueue<Runnable> q = hooks;
        if (q != null) {
            q.clear();
        }
    }

    /** Cancels the exchange once (runs the registered cancel hooks), unless the response already arrived. */
    public void cancel() {
        if (completed) {
            return;
        }
        if (CANCELLED.compareAndSet(this, false, true)) {
            ConcurrentLinkedQueue<Runnable> q = hooks; // read after the flag: an onCancel that made it later sees it
            Runnable r;
            while (q != null && (r = q.poll()) != null) {
                UserCode.run(LOG, "a cancel action of the transport", r);
            }
        }
    }
}
