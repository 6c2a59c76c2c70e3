package dev.loommcp.transport.http;

import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One logical exchange (a request with its redirects and resumptions, a GET stream, a DELETE) that any thread
 * can abort at once: the pending HTTP future is cancelled (or the thread blocked in the HTTP client's {@code send}
 * interrupted) and the body being read is closed.
 */
final class Call {
    final RequestId awaitedId;
    final String what;
    /**
     * Whether no transport timer bounds the exchange (no header timeout, no idle timeout): a modern-era request
     * without a deadline, such as a {@code subscriptions/listen} stream that stays open as long as the server likes.
     */
    final boolean unbounded;
    /**
     * Whether the exchange runs on the thread that waits for its answer anyway (the caller's): its HTTP requests are
     * then sent with the blocking {@link java.net.http.HttpClient#send}, which does on this thread what it can instead
     * of handing each step to another thread, and {@link #abort()} interrupts this thread while it blocks there.
     */
    final boolean onCallersThread;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean aborted;
    private volatile boolean completed;
    private CompletableFuture<?> future;
    private StreamBody body;
    /** The thread blocked in {@code HttpClient.send} for this call, between {@link #enterSend} and {@link #leaveSend}. */
    private Thread inSend;
    /** Whether {@link #abort()} or {@link #complete()} interrupted {@link #inSend} (then that interrupt is ours). */
    private boolean interruptedInSend;
    /** What the body handler found wrong with the framing of the latest response, or {@code null}. */
    private volatile String answerProblem;
    /**
     * Whether the server has the request and may still be working on it: its POST was answered 2xx with an event
     * stream, or the wait for its response headers timed out. A request that then fails without its answer is
     * cancelled on the wire by the core ({@link dev.loommcp.spi.SendContext#markAccepted()}).
     */
    volatile boolean serverHasRequest;
    /**
     * Whether the request is a legacy-era {@code initialize}: the one request that goes out while the session is
     * {@linkplain HttpSession#expired() expired}, and starts the next one. Set before the exchange starts.
     */
    volatile boolean startsSession;
    /**
     * Why the latest answer, a refusal (429, or 503 with {@code Retry-After}), was not sent again, or {@code null}:
     * set by {@link RefusalRetry} on the thread that runs the call, read by its error handling on the same thread.
     */
    volatile RateLimit rateLimited;

    /**
     * A refusal that was not sent again.
     *
     * @param retryAfter the server's wait, or {@code null}
     * @param sent       how many times the request was sent
     * @param why        why it was not sent again, for the message
     */
    record RateLimit(java.time.Duration retryAfter, int sent, String why) {
    }

    // The request being sent ({@link #sending}), read by the steps of the exchange ({@link Step}). Set and read by
    // the one thread that sends the call (the exchange's, the GET stream's...), so plain fields.

    /** The HTTP method of the request being sent. */
    String method;
    /** Its body, {@link Exchange#EMPTY} for none. */
    byte[] requestBody = Exchange.EMPTY;
    /** The transport's own headers of it (session or routing, Accept...). */
    Headers headers = Headers.NONE;
    /** The deadline of the send: the wait for the headers ends there. */
    Deadline deadline = Deadline.NONE;
    /** Which redirect the request follows ({@link Redirects}), 0 for the first. */
    int hop;
    /** How many times the request was sent in this exchange, across redirects and retries ({@link RefusalRetry}). */
    int sends;
    /** Which 401/403 retry of the authorization provider this is, 0 for none ({@link Authorization}). */
    int authAttempt;
    /** What the provider was asked for the latest send's credentials ({@link Authorization.Credentials}). */
    AuthorizationRequest authRequest;

    /**
     * How many times the authorization provider had the request sent again after a 401/403 (renewed credentials)
     * before the response came ({@link Authorization}): an error message for a final 401/403 says so.
     */
    volatile int authRetries;

    Call(RequestId awaitedId, String what) {
        this(awaitedId, what, false, false);
    }

    Call(RequestId awaitedId, String what, boolean unbounded, boolean onCallersThread) {
        this.awaitedId = awaitedId;
        this.what = what;
        this.unbounded = unbounded;
        this.onCallersThread = onCallersThread;
    }

    /**
     * Sets the request to be sent next on this call and starts its count of sends, redirects and retries anew.
     *
     * @return this call
     */
    Call sending(String method, byte[] body, Headers headers, Deadline deadline) {
        this.method = method;
        this.requestBody = body;
        this.headers = headers;
        this.deadline = deadline;
        this.hop = 0;
        this.sends = 0;
        this.authAttempt = 0;
        this.rateLimited = null;
        return this;
    }

    /**
     * The deadline that bounds what the transport waits for on this call's behalf: {@link Deadline#NONE} for an
     * {@link #unbounded} call, else the send's.
     */
    Deadline bound() {
        return unbounded ? Deadline.NONE : deadline;
    }

    /**
     * Marks the current thread as blocked in {@code HttpClient.send} for this call until {@link #leaveSend}: an abort
     * or completion meanwhile interrupts it (the blocking send then cancels its exchange), unless it was interrupted
     * already (then the interrupt is the owner's and ends the send anyway).
     *
     * @return {@code false} when the call was aborted already (nothing is to be sent)
     */
    boolean enterSend() {
        lock.lock();
        try {
            if (aborted) {
                return false;
            }
            inSend = Thread.currentThread(); // interruptedInSend is false: leaveSend reset it
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends what {@link #enterSend} began: from now on no abort interrupts this thread.
     *
     * @return whether an abort or completion interrupted the thread meanwhile: that interrupt was this call's, not
     *         the owner's, and the caller clears it if the send did not consume it. (An owner's interrupt that comes
     *         after this call's, in the few instructions before this method, is taken for this call's.)
     */
    boolean leaveSend() {
        lock.lock();
        try {
            inSend = null;
            boolean ours = interruptedInSend;
            interruptedInSend = false;
            return ours;
        } finally {
            lock.unlock();
        }
    }

    /** Interrupts the thread blocked in {@code HttpClient.send} for this call, if any; with {@link #lock} held. */
    private void interruptSend() {
        Thread t = inSend;
        if (t != null && t != Thread.currentThread() && !interruptedInSend && !t.isInterrupted()) {
            interruptedInSend = true;
            t.interrupt(); // never blocks; under the lock so that it cannot land after leaveSend
        }
    }

    void attach(CompletableFuture<?> f) {
        lock.lock();
        try {
            if (!aborted) {
                future = f;
                return;
            }
        } finally {
            lock.unlock();
        }
        f.cancel(true);
    }

    /** Records what is wrong with the framing of the response being received (the body handler's finding). */
    void answerProblem(String problem) {
        answerProblem = problem;
    }

    /** Returns and clears what {@link #answerProblem(String)} recorded, or {@code null}. */
    String takeAnswerProblem() {
        String p = answerProblem;
        answerProblem = null;
        return p;
    }

    void attach(StreamBody b) {
        lock.lock();
        try {
            if (!aborted) {
                body = b;
                return;
            }
        } finally {
            lock.unlock();
        }
        b.close();
    }

    /** Aborts: cancels the pending future and closes the body. Never blocks on I/O. */
    void abort() {
        CompletableFuture<?> f;
        StreamBody b;
        lock.lock();
        try {
            if (aborted) {
                return;
            }
            aborted = true;
            f = future;
            b = body;
            interruptSend();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (f != null) {
            f.cancel(true);
        }
        if (b != null) {
            b.close();
        }
    }

    /**
     * Releases what is still open at the end of the call, without marking it aborted: the body of a completed call
     * is {@linkplain StreamBody#finish() finished} (its connection may be kept), any other closed.
     */
    void release() {
        CompletableFuture<?> f;
        StreamBody b;
        lock.lock();
        try {
            f = future;
            b = body;
        } finally {
            lock.unlock();
        }
        if (f != null && !f.isDone()) {
            f.cancel(true);
        }
        if (b != null) {
            if (completed) {
                b.finish();
            } else {
                b.close();
            }
        }
    }

    boolean aborted() {
        lock.lock();
        try {
            return aborted;
        } finally {
            lock.unlock();
        }
    }

    boolean completed() {
        return completed;
    }

    /**
     * Marks the awaited response delivered (from any stream) and ends the current exchange: a pending future is
     * cancelled and the body being read is {@linkplain StreamBody#finish() finished} (its rest dropped, its
     * connection kept when it ends soon).
     */
    void complete() {
        StreamBody b;
        CompletableFuture<?> f;
        lock.lock();
        try {
            completed = true;
            b = body;
            f = future;
            interruptSend();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (f != null && !f.isDone()) {
            f.cancel(true);
        }
        if (b != null) {
            b.finish();
        }
    }

    /**
     * Waits {@code millis}, or less when the call is aborted or completed or {@code deadline} comes first.
     *
     * @return {@code false} when aborted
     */
    boolean sleep(long millis, Deadline deadline) throws InterruptedException {
        Deadline end = Deadline.after(java.time.Duration.ofMillis(millis)).earliest(deadline);
        lock.lockInterruptibly();
        try {
            while (!aborted && !completed) {
                long left = end.remainingNanos();
                if (left <= 0) {
                    break;
                }
                changed.awaitNanos(left);
            }
            return !aborted;
        } finally {
            lock.unlock();
        }
    }
}
