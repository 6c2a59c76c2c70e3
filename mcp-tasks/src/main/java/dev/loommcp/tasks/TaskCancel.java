package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.Map;

/**
 * The cancel of one task: {@code tasks/cancel} when asked ({@link McpTask#cancel}; nothing is sent for a task known
 * to be terminal; in the 2025-11-25 era a {@code -32602} may mean the task already ended, which a {@code tasks/get}
 * tells), and the bounded, best-effort cancel of a wait that gives up ({@link #cancelQuietly}). Thread-safe.
 */
final class TaskCancel {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /** How long a best-effort {@code tasks/cancel} may take (issue 11 seam rules: bounded to 5 s). */
    static final Duration CANCEL_BOUND = Duration.ofSeconds(5);

    private final TaskHandle h;

    TaskCancel(TaskHandle h) {
        this.h = h;
    }

    /** {@link McpTask#cancel}. */
    void cancel(RequestOptions options) throws InterruptedException {
        if (h.snapshot().status().isTerminal()) {
            return;
        }
        Map<String, Object> raw;
        try {
            raw = TaskRequests.send(h.owner().channel(), "tasks/cancel", TaskWire.params("taskId", h.id), options);
        } catch (McpTaskNotFoundException e) {
            // 2025-11-25: -32602 also means "already terminal"; the task's status tells which
            if (h.era != Era.LEGACY || !endedMeanwhile(options)) {
                throw e;
            }
            return;
        }
        if (h.era == Era.LEGACY && raw != null && raw.get("status") != null) {
            try {
                h.apply(TaskWire.parse(raw, h.era, h.id, "tasks/cancel result"), TaskHandle.deadlineOf(options));
            } catch (McpProtocolException e) {
                LOG.log(System.Logger.Level.DEBUG, "tasks/cancel answer of task {0} not readable: {1}", h.shownId,
                        e.getMessage());
            }
        }
    }

    /** Whether {@code tasks/get} now finds the task terminal (the snapshot then holds it); failures mean no. */
    private boolean endedMeanwhile(RequestOptions options) throws InterruptedException {
        try {
            return h.get(options).status().isTerminal();
        } catch (McpException e) {
            return false;
        }
    }

    /** Sends a bounded, best-effort {@code tasks/cancel} (never on an interrupted thread: the flag is kept). */
    void cancelQuietly(String why) {
        boolean interrupted = Thread.interrupted();
        try {
            LOG.log(System.Logger.Level.DEBUG, "cancelling task {0}: {1}", h.shownId, why);
            Deadline bound = Deadline.after(CANCEL_BOUND); // the cancel and the store's removal together
            cancel(RequestOptions.ofTimeout(CANCEL_BOUND));
            h.owner().forget(h, bound);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "tasks/cancel of task {0} failed: {1}", h.shownId, e.toString());
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
