package dev.loommcp.internal.session;

import dev.loommcp.McpClosedException;
import dev.loommcp.internal.session.subscriptions.Subscriptions;
import java.util.Map;
import dev.loommcp.spi.McpTransport;
import java.time.Duration;
import dev.loommcp.Deadline;

/**
 * The release of a client just marked closed ({@link ClientLife#release}): fails the pending calls, stops the task
 * driver and the inbound handlers, closes the transport, then interrupts and joins (bounded: 5 seconds) the event
 * loop, the handler threads and the background threads, and ends the subscriptions last. Runs once per client.
 */
final class SessionRelease implements Runnable {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private final ClientLife life;
    private final Map<Long, PendingCall> pending;
    private final TaskBridge tasks;
    private final McpTransport transport;
    private final Events observed;
    private final Subscriptions subscriptions;
    /** Set when the transport refused to open as already opened (by another client): then it is not ours to close. */
    private volatile boolean notOurs;

    SessionRelease(ClientLife life, Map<Long, PendingCall> pending, TaskBridge tasks, McpTransport transport,
                   Events observed, Subscriptions subscriptions) {
        this.life = life;
        this.pending = pending;
        this.tasks = tasks;
        this.transport = transport;
        this.observed = observed;
        this.subscriptions = subscriptions;
    }

    /**
     * Marks the transport as not this client's: its {@code open} threw {@link IllegalStateException} (it was opened
     * before, by another client), so the release leaves it open for the client that owns it.
     */
    void transportRefusedOpen() {
        notOurs = true;
    }

    /**
     * Releases everything of a client just marked closed: pending calls, handlers, transport, threads. The calling
     * thread's interrupt status is re-asserted at the end.
     */
    @Override
    public void run() {
        // an interrupted closer (a task cancelled with Future.cancel(true)) still closes the transport and waits
        // within the bound; the interrupt is re-asserted at the end
        boolean interrupted = Thread.interrupted();
        Throwable cause = life.closeCause();
        McpClosedException closed = new McpClosedException("the client was closed", cause);
        for (PendingCall p : pending.values()) {
            p.future.completeExceptionally(closed);
        }
        tasks.clientClosed(); // the close token fires, the task driver stops its polls
        // the client's own threads and every request under it: handlers and the event loop interrupted, the
        // requests' cancel actions run (their exchanges aborted), before the transport closes
        life.cancelWork();
        // a notifications/cancelled already queued goes out before the transport closes: the transport's close()
        // lets its one-way sends finish, bounded
        if (!notOurs) {
            try {
                transport.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "closing the transport failed", e);
            }
        }
        observed.transportClosed(cause);
        // then the transport's threads are cancelled too, and every thread of the tree is awaited (the closing
        // thread excepted, when it is one of them: a listener or handler that closed the client)
        if (!life.closeScopes(Deadline.after(Duration.ofSeconds(5)))) {
            LOG.log(System.Logger.Level.DEBUG, () -> "threads of the client for " + transport.describe()
                    + " still ran 5 s after its close");
        }
        interrupted |= Thread.interrupted(); // the scope's wait re-sets an interrupt it received
        subscriptions.clientClosed(cause); // onEnded once each, after every other client thread ended
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
