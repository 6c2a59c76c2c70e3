package dev.loommcp.internal.session;

import dev.loommcp.McpClosedException;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import dev.loommcp.spi.Deadline;

/**
 * The release of a {@link Session} just marked closed: fails the pending calls, stops the task driver and the
 * inbound handlers, closes the transport, then interrupts and joins (bounded: 5 seconds) the event loop, the handler
 * threads and the background threads, and ends the subscriptions last. Runs once per session.
 */
final class SessionRelease {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private SessionRelease() {
    }

    /**
     * Releases everything of a session just marked closed: pending calls, handlers, transport, threads.
     *
     * @param session the session, just marked closed; the calling thread's interrupt status is re-asserted at the end
     */
    static void release(Session session) {
        // an interrupted closer (a task cancelled with Future.cancel(true)) still closes the transport and waits
        // within the bound; the interrupt is re-asserted at the end
        boolean interrupted = Thread.interrupted();
        Throwable cause = session.closeCause();
        McpClosedException closed = new McpClosedException("the client was closed", cause);
        for (PendingCall p : session.pending.values()) {
            p.future.completeExceptionally(closed);
        }
        session.tasks.clientClosed(); // the close token fires, the task driver stops its polls
        // the client's own threads and every request under it: handlers and the event loop interrupted, the
        // requests' cancel actions run (their exchanges aborted), before the transport closes
        session.cancelWork();
        // a notifications/cancelled already queued goes out before the transport closes: the transport's close()
        // lets its one-way sends finish, bounded
        try {
            session.transport.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the transport failed", e);
        }
        session.observed.transportClosed(cause);
        // then the transport's threads are cancelled too, and every thread of the tree is awaited (the closing
        // thread excepted, when it is one of them: a listener or handler that closed the client)
        if (!session.closeScopes(Deadline.after(Duration.ofSeconds(5)))) {
            LOG.log(System.Logger.Level.DEBUG, () -> "threads of the client for " + session.transport.describe()
                    + " still ran 5 s after its close");
        }
        interrupted |= Thread.interrupted(); // the scope's wait re-sets an interrupt it received
        session.subscriptions.clientClosed(cause); // onEnded once each, after every other client thread ended
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
