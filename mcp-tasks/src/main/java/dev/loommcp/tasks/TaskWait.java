package dev.loommcp.tasks;

import org.jspecify.annotations.Nullable;
import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.Registration;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wait for one task's result ({@link McpTask#await}): a waiter parks its own thread on the handle's condition
 * while polls and pushes bring the task's status; modern {@code input_required} is answered through the client's
 * handlers; the wait gives up, cancelling the task first ({@link TaskCancel#cancelQuietly}), when the caller's
 * deadline passes, its token fires or its thread is interrupted, and fails when the client closes or the task's TTL passes with no end. A legacy task's wait
 * is {@link LegacyResult}'s {@code tasks/result}. Thread-safe: its state is the handle's {@link TaskState}.
 */
final class TaskWait {

    private final TaskHandle h;
    private final TaskState st;

    TaskWait(TaskHandle h) {
        this.h = h;
        this.st = h.state;
    }

    /**
     * Waits for the task's final result as plain JSON (see {@link McpTask#await(RequestOptions)}).
     *
     * @param options deadline and token
     * @return the final {@code CallToolResult} as plain JSON
     * @throws InterruptedException if interrupted (the task is cancelled first, best effort)
     */
    Map<String, Object> awaitRaw(RequestOptions options) throws InterruptedException {
        java.util.Objects.requireNonNull(options, "options");
        Deadline deadline = TaskHandle.deadlineOf(options);
        CancellationToken token = options.token().orElse(null);
        TaskSnapshot now = st.snapshot();
        if (now.status().isTerminal() && (h.era == Era.MODERN || now.result() != null || now.error() != null
                || now.status() == TaskStatus.CANCELLED)) {
            h.delivery.awaitDelivered(deadline);
            return finish(now);
        }
        st.lock.lock();
        try {
            st.awaiters++;
        } finally {
            st.lock.unlock();
        }
        Registration onToken = token == null ? null : token.onCancel(st::wake);
        Registration onClose = h.owner().channel().closeToken().onCancel(st::wake);
        try {
            h.polls.watch();
            if (h.era == Era.MODERN) {
                return awaitModern(deadline, token, options);
            }
            Map<String, Object> raw = LegacyResult.await(h, deadline, token);
            h.delivery.awaitDelivered(deadline);
            return raw;
        } catch (InterruptedException e) {
            h.cancels.cancelQuietly("the waiting thread was interrupted");
            throw e;
        } finally {
            onClose.close();
            if (onToken != null) {
                onToken.close();
            }
            boolean last;
            st.lock.lock();
            try {
                last = --st.awaiters == 0;
            } finally {
                st.lock.unlock();
            }
            if (last) {
                h.push.close();
            }
        }
    }

    private Map<String, Object> awaitModern(Deadline deadline, CancellationToken token, RequestOptions options)
            throws InterruptedException {
        h.push.open();
        while (true) {
            TaskSnapshot s;
            RuntimeException failed;
            st.lock.lock();
            try {
                s = st.snapshot;
                failed = st.failure;
            } finally {
                st.lock.unlock();
            }
            if (s.status().isTerminal()) {
                h.delivery.awaitDelivered(deadline);
                return finish(s);
            }
            checkAbandoned(deadline, token, failed);
            if (s.status() == TaskStatus.INPUT_REQUIRED && !s.inputRequests().isEmpty()) {
                answerInputs(s, deadline, token, options);
            }
            st.lock.lock();
            try {
                if (st.snapshot == s && st.failure == null && !deadline.isExpired()
                        && (token == null || !token.isCancelled()) && !clientClosed()) {
                    long wait = Math.min(deadline.remainingNanos(), ttlRemainingNanos(s));
                    if (wait > 0) {
                        st.changed.awaitNanos(wait);
                    }
                }
            } finally {
                st.lock.unlock();
            }
        }
    }

    private void answerInputs(TaskSnapshot s, Deadline deadline, CancellationToken token, RequestOptions options)
            throws InterruptedException {
        Map<String, Object> fresh = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : s.inputRequests().entrySet()) {
            if (h.claimedKeys.add(e.getKey())) {
                fresh.put(e.getKey(), e.getValue());
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        RequestOptions handlerOptions = withDeadline(deadline, token, options);
        Map<String, Object> answers;
        try {
            answers = h.owner().channel().answerInputRequests(fresh, handlerOptions);
        } catch (RuntimeException | InterruptedException e) {
            h.claimedKeys.removeAll(fresh.keySet()); // not answered: may be given later (update) or asked again
            // the task is cancelled only when the deadline passed or the token fired meanwhile (an interrupt:
            // awaitRaw); any other failure (no handler, a handler that threw) leaves the task as it is
            if (e instanceof RuntimeException) {
                checkAbandoned(deadline, token, null);
            }
            throw e;
        }
        Map<String, Object> responses = new LinkedHashMap<>();
        for (String key : fresh.keySet()) {
            if (answers != null && answers.containsKey(key)) {
                responses.put(key, answers.get(key));
            } else {
                h.claimedKeys.remove(key);
            }
        }
        h.sendUpdate(responses, handlerOptions);
    }

    private void checkAbandoned(Deadline deadline, CancellationToken token, RuntimeException failed) {
        if (failed != null) {
            if (failed instanceof McpClosedException c) {
                throw closedWhileWaiting(c);
            }
            throw failed;
        }
        if (clientClosed()) {
            throw closedWhileWaiting(null);
        }
        if (token != null && token.isCancelled()) {
            h.cancels.cancelQuietly("the caller's token fired");
            throw new McpCancelledException("waiting for task " + h.shownId + " was cancelled ("
                    + token.reason().orElse("cancelled")
                    + "); tasks/cancel was sent");
        }
        if (deadline.isExpired()) {
            h.cancels.cancelQuietly("the caller's deadline passed");
            throw new McpTimeoutException("task " + h.shownId + " did not end before the caller's deadline;"
                    + " tasks/cancel was sent");
        }
        TaskSnapshot s = st.snapshot();
        if (ttlRemainingNanos(s) == 0) {
            h.owner().forget(h, deadline);
            throw new McpTimeoutException("task " + h.shownId + " passed its TTL of " + s.ttl().toMillis()
                    + " ms (counted from " + h.learnedAt() + ", when this client learned of it) with no terminal"
                    + " status");
        }
    }

    /**
     * The failure of a wait that the client's end ended: when a transport failure closed the client, an exception
     * that says the connection was lost and carries that failure; after the owner's close, that the client closed.
     *
     * @param seen the closed exception the wait saw, or {@code null}
     */
    McpClosedException closedWhileWaiting(@Nullable McpClosedException seen) {
        Throwable cause = h.owner().channel().closeCause().orElse(null);
        if (cause != null) {
            return new McpClosedException("the connection to the server was lost while waiting for task " + h.shownId
                    + ": " + (cause.getMessage() == null ? cause.toString() : cause.getMessage()), cause);
        }
        return new McpClosedException("the client closed while waiting for task " + h.shownId, seen);
    }

    /**
     * Nanoseconds until the TTL backstop (the TTL plus one poll interval of grace), or Long.MAX_VALUE. Counted on
     * this machine's monotonic clock from when this client learned of the task, never from the server's
     * {@code createdAt}: the two clocks may disagree by minutes, and the task is at least that old here, so the
     * backstop never fires before the TTL has passed (it may fire a little after).
     */
    long ttlRemainingNanos(TaskSnapshot s) {
        if (s.ttl() == null) {
            return Long.MAX_VALUE;
        }
        long budget = saturatedNanos(s.ttl().plus(h.polls.interval(s)));
        long elapsed = System.nanoTime() - h.learnedNanos;
        long left = budget - elapsed;
        return left <= 0 ? 0 : Math.min(left, Long.MAX_VALUE - 1);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private Map<String, Object> finish(TaskSnapshot s) {
        switch (s.status()) {
            case COMPLETED -> {
                if (s.result() == null) {
                    throw new McpProtocolException("task " + h.shownId + " is completed but its result is missing");
                }
                return s.result();
            }
            case FAILED -> {
                if (s.result() != null) {
                    return s.result(); // legacy: a tool result with isError ends the task failed; still a result
                }
                JsonRpcError error = s.error() != null ? s.error()
                        : new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "task " + h.shownId + " failed"
                        + (s.statusMessage() == null ? "" : ": " + TaskWire.shownMessage(s.statusMessage())), null);
                throw new McpTaskFailedException("tools/call", h.toolNameOrNull(), h.id, null, error);
            }
            case CANCELLED -> throw cancelled(s);
            default -> throw new IllegalStateException("not terminal: " + s.status());
        }
    }

    McpCancelledException cancelled(TaskSnapshot s) {
        return new McpCancelledException("task " + h.shownId + " was cancelled"
                + (s.statusMessage() == null ? "" : ": " + TaskWire.shownMessage(s.statusMessage())));
    }

    private boolean clientClosed() {
        return h.owner().channel().closeToken().isCancelled();
    }

    private static RequestOptions withDeadline(Deadline deadline, CancellationToken token, RequestOptions options) {
        RequestOptions.Builder b = RequestOptions.newBuilder().meta(options.meta());
        if (!deadline.isNone()) {
            b.timeout(Duration.ofNanos(Math.max(1, deadline.remainingNanos())));
        }
        if (token != null) {
            b.token(token);
        }
        return b.build();
    }
}
