package dev.loommcp.tasks;

import dev.loommcp.CancellationToken;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.Map;

/**
 * The wait of a 2025-11-25 task (MCP 2025-11-25 tasks §Retrieving Task Results, MODERN-ERA.md C.6.5): one
 * {@code tasks/result}, which blocks until the task ends, bounded by the caller's deadline, else the task's TTL, else
 * {@link #LEGACY_RESULT_TIMEOUT}; its error explained by the task's status ({@code cancelled} or
 * {@code failed}). Input arrives meanwhile as server requests, answered by the client's handlers. Stateless.
 */
final class LegacyResult {

    /** The {@code tasks/result} timeout when neither the caller nor the task's TTL bounds it. */
    static final Duration LEGACY_RESULT_TIMEOUT = Duration.ofHours(24);

    private LegacyResult() {
    }

    /**
     * Waits for the task's result.
     *
     * @return the result JSON (the snapshot then says completed, or failed for {@code isError: true}, C.6.8)
     */
    static Map<String, Object> await(TaskHandle h, Deadline deadline, CancellationToken token)
            throws InterruptedException {
        String id = h.id();
        String shown = TaskWire.shown(id);
        TaskSnapshot s = h.snapshot();
        Deadline ttlEnd = s.ttl() == null ? Deadline.NONE
                : Deadline.after(Duration.ofNanos(Math.min(h.waits.ttlRemainingNanos(s), Long.MAX_VALUE / 2)));
        Deadline resultDeadline = deadline.earliest(ttlEnd);
        if (resultDeadline.isNone()) {
            resultDeadline = Deadline.after(LEGACY_RESULT_TIMEOUT);
        }
        RequestOptions.Builder b = RequestOptions.newBuilder()
                .timeout(Duration.ofNanos(Math.max(1, resultDeadline.remainingNanos())));
        if (token != null) {
            b.token(token);
        }
        Map<String, Object> raw;
        try {
            raw = TaskRequests.send(h.owner().channel(), "tasks/result", TaskWire.params("taskId", id), b.build());
        } catch (McpTimeoutException e) {
            if (deadline.isExpired()) {
                h.cancels.cancelQuietly("the caller's deadline passed");
                throw new McpTimeoutException("task " + shown + " did not end before the caller's deadline;"
                        + " tasks/cancel was sent");
            }
            h.owner().forget(h, deadline);
            TaskSnapshot last = h.snapshot();
            throw new McpTimeoutException("task " + shown + " passed its TTL of "
                    + (last.ttl() == null ? "?" : last.ttl().toMillis()) + " ms (counted from " + h.learnedAt()
                    + ", when this client learned of it) with no result from tasks/result");
        } catch (McpCancelledException e) {
            if (token != null && token.isCancelled()) {
                h.cancels.cancelQuietly("the caller's token fired");
                throw new McpCancelledException("waiting for task " + shown + " was cancelled ("
                        + token.reason().orElse("cancelled")
                        + "); tasks/cancel was sent");
            }
            throw e;
        } catch (McpTaskNotFoundException e) {
            h.owner().forget(h, deadline);
            throw e;
        } catch (McpClosedException e) {
            throw h.waits.closedWhileWaiting(e);
        } catch (McpRpcException e) {
            TaskSnapshot last = learnQuietly(h);
            if (last.status() == TaskStatus.CANCELLED) {
                throw h.waits.cancelled(last);
            }
            h.apply(TaskSnapshot.newBuilder(id, Era.LEGACY, TaskStatus.FAILED).statusMessage(last.statusMessage())
                    .error(e.error()).build(), deadline);
            throw new McpTaskFailedException("tools/call", h.toolNameOrNull(), id, e.requestId().orElse(null),
                    e.error());
        }
        if (raw == null) {
            throw new McpProtocolException("tasks/result of task " + shown + " returned no result");
        }
        boolean isError = Boolean.TRUE.equals(raw.get("isError"));
        TaskSnapshot done = TaskSnapshot.newBuilder(id, Era.LEGACY, isError ? TaskStatus.FAILED : TaskStatus.COMPLETED)
                .statusMessage(h.snapshot().statusMessage()).result(raw).build();
        h.apply(done, deadline);
        return raw;
    }

    /** A status from tasks/get, bounded, for explaining a tasks/result error; the known snapshot if that fails. */
    private static TaskSnapshot learnQuietly(TaskHandle h) {
        try {
            return h.get(RequestOptions.ofTimeout(TaskCancel.CANCEL_BOUND));
        } catch (RuntimeException e) {
            return h.snapshot();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return h.snapshot();
        }
    }
}
