package dev.loommcp.tasks;

import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTransportException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The polls of one task: scheduling the next {@code tasks/get} on the client's {@link PollTimer} while someone waits
 * or listens, at the server's latest interval clamped to the builder's bounds and doubled per back-off; one poll
 * ({@link #pollOnce}, on a poll thread of the timer) and what its failure means (a rate limit backs off, a permanent
 * refusal or too many failures in a row fail the waiters). Thread-safe: its state is the handle's
 * {@link TaskState}, under its lock.
 */
final class TaskPolls {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /** The timeout of one poll request. */
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(30);
    /** Consecutive failed polls (other than rate limits) after which waiters get the failure. */
    static final int MAX_POLL_FAILURES = 5;

    private final TaskHandle h;
    private final TaskState st;

    TaskPolls(TaskHandle h) {
        this.h = h;
        this.st = h.state;
    }

    /** Schedules the next poll if someone waits or listens, the task is open, and none is scheduled or running. */
    void watch() {
        long due;
        st.lock.lock();
        try {
            if (st.scheduled || st.polling || st.failure != null || st.snapshot.status().isTerminal()
                    || (st.awaiters == 0 && !h.delivery.hasListeners())) {
                return;
            }
            st.scheduled = true;
            due = st.statusUnknown ? System.nanoTime() : st.lastPollNanos + interval(st.snapshot).toNanos();
        } finally {
            st.lock.unlock();
        }
        boolean ok;
        try {
            ok = h.owner().timer().schedule(h, due);
        } catch (RuntimeException e) {
            ok = false;
            h.fail(e);
        }
        if (!ok) {
            st.lock.lock();
            try {
                st.scheduled = false;
            } finally {
                st.lock.unlock();
            }
        }
    }

    /** Runs one {@code tasks/get} poll; on a poll thread of the timer. */
    void pollOnce() {
        st.lock.lock();
        try {
            st.scheduled = false;
            if (st.failure != null || st.snapshot.status().isTerminal()
                    || h.owner().channel().closeToken().isCancelled()
                    || (st.awaiters == 0 && !h.delivery.hasListeners())) {
                return; // nobody waits or listens any more
            }
            st.polling = true;
            st.statusUnknown = false; // a failed first poll is retried after an interval, not at once
            st.polls++;
        } finally {
            st.lock.unlock();
        }
        try {
            Map<String, Object> raw = TaskRequests.send(h.owner().channel(), "tasks/get",
                    TaskWire.params("taskId", h.id), RequestOptions.newBuilder().timeout(POLL_TIMEOUT)
                            .token(h.owner().channel().closeToken()).build());
            h.apply(TaskWire.parse(raw, h.era, h.id, "tasks/get result"), Deadline.NONE);
            st.lock.lock();
            try {
                st.failedPolls = 0;
                st.backoffShift = 0;
            } finally {
                st.lock.unlock();
            }
        } catch (McpTaskNotFoundException | McpClosedException e) {
            h.fail(e);
        } catch (InterruptedException e) {
            h.fail(new McpCancelledException("the poll of task " + h.shownId + " was interrupted"));
        } catch (RuntimeException e) {
            failed(e);
        } finally {
            st.lock.lock();
            try {
                st.polling = false;
                st.lastPollNanos = System.nanoTime();
            } finally {
                st.lock.unlock();
            }
            watch();
        }
    }

    /** A poll failed: back off, and give the failure to the waiters when it will not go away. */
    private void failed(RuntimeException e) {
        boolean rateLimited = isRateLimit(e);
        boolean give;
        st.lock.lock();
        try {
            st.backoffShift = Math.min(st.backoffShift + 1, 16);
            // a handle made from an id that the server never answered for: its refusal of the first poll is
            // the caller's answer, as get() gives it (an id it cannot take is not worth polling again)
            give = isPermanent(e) || (!rateLimited && st.neverHeard)
                    || (!rateLimited && ++st.failedPolls >= MAX_POLL_FAILURES);
        } finally {
            st.lock.unlock();
        }
        LOG.log(System.Logger.Level.DEBUG, "poll of task {0} failed ({1}), backing off: {2}", h.shownId,
                rateLimited ? "rate limited" : "attempt " + st.failedPolls, e.toString());
        if (give || h.owner().channel().closeToken().isCancelled()) {
            h.fail(e);
        }
    }

    /**
     * Returns whether a failure signals a rate limit: HTTP 429, or a JSON-RPC error whose message speaks of a rate
     * limit or too many requests.
     */
    static boolean isRateLimit(RuntimeException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (e instanceof McpTransportException) {
            return m.contains("429") || m.contains("too many requests");
        }
        return e instanceof McpRpcException && (m.contains("rate limit") || m.contains("rate-limit")
                || m.contains("too many requests"));
    }

    /**
     * Returns whether a poll failure will not go away by polling again: the extension is missing ({@code -32021}),
     * the method does not exist, or the answer is not a task.
     */
    static boolean isPermanent(RuntimeException e) {
        return e instanceof McpProtocolException || e instanceof McpUnsupportedInEraException
                || (e instanceof McpRpcException r && (r.code() == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY
                || r.code() == JsonRpcError.METHOD_NOT_FOUND || r.code() == JsonRpcError.INVALID_PARAMS));
    }

    /** The interval to the next poll: the server's latest, clamped to the builder's bounds, doubled per back-off. */
    Duration interval(TaskSnapshot s) {
        Duration min = h.owner().minPollInterval();
        Duration max = h.owner().maxPollInterval();
        Duration base = s.pollInterval() != null ? s.pollInterval()
                : (max.compareTo(Duration.ofSeconds(1)) < 0 ? max : Duration.ofSeconds(1));
        if (base.compareTo(min) < 0) {
            base = min;
        }
        if (base.compareTo(max) > 0) {
            base = max;
        }
        if (st.backoffShift > 0) {
            Duration backed = base.multipliedBy(1L << st.backoffShift);
            base = backed.compareTo(max) > 0 ? (base.compareTo(max) < 0 ? max : base) : backed;
        }
        return base;
    }
}
