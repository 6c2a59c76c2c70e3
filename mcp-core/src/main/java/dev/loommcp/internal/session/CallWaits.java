package dev.loommcp.internal.session;

import dev.loommcp.CancellationToken;
import dev.loommcp.Deadline;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.Registration;
import dev.loommcp.internal.scope.Scope;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The waits of one logical request under its guard (a rate permit, a concurrency slot, a retry's backoff): parked on
 * a {@link Condition} until signalled, the deadline, or the request's end (its token fired, its scope ended: an outer
 * scope or the client's close), which wakes it through a cancel action. No thread of its own and no polling. Used by
 * the request's own thread; {@link #wake} by any.
 */
final class CallWaits implements AutoCloseable {

    private final String method;
    private final Deadline deadline;
    private final CancellationToken token;
    private final Scope<?, ?> scope;
    private final Registration tokenRegistration;
    private final Registration scopeRegistration;
    private final ReentrantLock sleepLock = new ReentrantLock();
    private final Condition sleeping = sleepLock.newCondition();
    private volatile boolean ended;
    /** The lock and condition the request waits on now, or {@code null}: what {@link #wake} signals. */
    private volatile Lock waitLock;
    private volatile Condition waitCondition;

    CallWaits(CallGuard.Request request) {
        this.method = request.method();
        this.deadline = request.deadline();
        this.token = request.token();
        this.scope = request.scope();
        this.tokenRegistration = token == null ? () -> { } : token.onCancel(this::wake);
        this.scopeRegistration = scope == null ? () -> { } : scope.onCancel(this::wake);
    }

    /** The request ended (token, scope): wakes its wait. Any thread; never waits for the request. */
    private void wake() {
        ended = true;
        Lock l = waitLock;
        Condition c = waitCondition;
        if (l != null && c != null) {
            l.lock();
            try {
                c.signalAll();
            } finally {
                l.unlock();
            }
        }
    }

    /**
     * Waits on {@code condition} (its {@code lock} held by the caller) at most {@code nanos} and at most until the
     * deadline; returns early when signalled (the caller checks what it waits for again) or when the request ended
     * (the caller calls {@link #check} next).
     */
    void await(Lock lock, Condition condition, long nanos) throws InterruptedException {
        long bound = deadline.isNone() ? nanos : Math.min(nanos, deadline.remainingNanos());
        if (bound <= 0) {
            return;
        }
        waitCondition = condition;
        waitLock = lock; // after the condition: wake reads the lock first
        try {
            if (!ended) {
                condition.awaitNanos(bound);
            }
        } finally {
            waitLock = null;
            waitCondition = null;
        }
    }

    /**
     * Throws when the request may wait no longer: it ended (cancelled), or its deadline passed.
     *
     * @param waitingFor what it was waiting for, for the message
     * @throws McpCancelledException if the token fired or the scope ended
     * @throws McpTimeoutException   if the deadline passed
     */
    void check(String waitingFor) {
        if (ended || (token != null && token.isCancelled()) || (scope != null && scope.isCancelled())) {
            String reason = token != null && token.isCancelled() ? token.reason().orElse("cancelled")
                    : scope != null && scope.isCancelled() ? scope.endedBy() : "cancelled";
            if (!deadline.isNone() && deadline.isExpired() && !(token != null && token.isCancelled())) {
                throw timeout(waitingFor);
            }
            throw new McpCancelledException(method + " not sent: cancelled while waiting for " + waitingFor + " ("
                    + reason + ")");
        }
        if (deadline.isExpired()) {
            throw timeout(waitingFor);
        }
    }

    /** The timeout of a request whose deadline passed while it waited for {@code waitingFor}. */
    McpTimeoutException timeout(String waitingFor) {
        return new McpTimeoutException(method + " not sent: the call's deadline passed while it waited for "
                + waitingFor);
    }

    /** Whether the request ended (token or scope) or its deadline passed. */
    boolean over() {
        return ended || deadline.isExpired() || (token != null && token.isCancelled())
                || (scope != null && scope.isCancelled());
    }

    /** Sleeps {@code nanos} (a retry's backoff), returning early when the request ends; then {@link #check}s. */
    void sleep(long nanos, String what) throws InterruptedException {
        long until = System.nanoTime() + nanos;
        sleepLock.lock();
        try {
            long left;
            while ((left = until - System.nanoTime()) > 0 && !over()) {
                await(sleepLock, sleeping, left);
            }
        } finally {
            sleepLock.unlock();
        }
        check(what);
    }

    /** The request's method. */
    String method() {
        return method;
    }

    /** The call's deadline. */
    Deadline deadline() {
        return deadline;
    }

    @Override
    public void close() {
        tokenRegistration.close();
        scopeRegistration.close();
    }
}
