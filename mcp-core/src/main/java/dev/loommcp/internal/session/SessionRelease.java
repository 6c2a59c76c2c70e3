package dev.loommcp.internal.session;

import dev.loommcp.McpClosedException;
import dev.loommcp.internal.concurrent.Joins;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        Thread self = Thread.currentThread();
        session.tasks.clientClosed(); // the close token fires, the task driver stops its polls
        session.inbound.interruptHandlers();
        // a notifications/cancelled already queued goes out before the transport closes: the transport's close()
        // lets its one-way sends finish, bounded
        try {
            session.transport.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the transport failed", e);
        }
        session.observed.transportClosed(cause);
        Thread eventThread = session.events.thread();
        if (eventThread != null && eventThread != self) {
            eventThread.interrupt();
        }
        List<Thread> toJoin = new ArrayList<>();
        if (eventThread != null) {
            toJoin.add(eventThread);
        }
        toJoin.addAll(session.inbound.handlerThreads());
        toJoin.addAll(session.background);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Thread t : toJoin) {
            if (t != self) {
                t.interrupt();
            }
        }
        interrupted |= Joins.joinAll(toJoin, end);
        session.subscriptions.clientClosed(cause); // onEnded once each, after every other client thread ended
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
