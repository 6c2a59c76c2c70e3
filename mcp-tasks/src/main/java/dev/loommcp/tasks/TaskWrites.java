package dev.loommcp.tasks;

import dev.loommcp.Deadline;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link McpTasks} writes to its store for the tasks it drives: each status under this owner's lease
 * ({@link TaskLeaseKeeper#record}), the end with the fenced {@link TaskStore#complete} and the result listener told
 * only when that write wins, the removal of a record that is not (or no longer) kept. Store failures are logged and
 * told to the store failure listener, never thrown to the delivering thread. Calls user code (the listeners) with no
 * lock held. Thread-safe.
 */
final class TaskWrites {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    private final TaskStore store;
    private final TaskLeaseKeeper leases;
    private final Duration resultRetention;
    private final @Nullable TaskResultListener resultListener;
    private final @Nullable BiConsumer<McpTask, RuntimeException> storeFailureListener;

    TaskWrites(TaskStore store, TaskLeaseKeeper leases, Duration resultRetention,
               @Nullable TaskResultListener resultListener,
               @Nullable BiConsumer<McpTask, RuntimeException> storeFailureListener) {
        this.store = store;
        this.leases = leases;
        this.resultRetention = resultRetention;
        this.resultListener = resultListener;
        this.storeFailureListener = storeFailureListener;
    }

    /**
     * Writes what the store is to hold of the task {@code h} of the server {@code serverKey}: {@code s} while it
     * runs (under this owner's lease), its end when {@code s} is terminal (fenced; the listener told when the write
     * wins), its removal when {@code s} is {@code null} or the task is not leased here. Waits for the store no longer
     * than {@code deadline}; a store that stays busy, or fails otherwise, is logged as a WARNING naming the task and
     * the store's reason, and told to the store failure listener; the task goes on.
     */
    void write(TaskHandle h, @Nullable TaskSnapshot s, String serverKey, Deadline deadline) {
        if (s == null || s.status().isTerminal()) {
            try {
                String toolName = h.toolNameOrNull();
                if (s != null && toolName != null) {
                    if (ended(h, s, serverKey, toolName, deadline)) {
                        return;
                    }
                } else if (leases.drop(serverKey, h.id())) {
                    return; // another owner drives it now: its record is not ours to remove
                }
                store.remove(serverKey, h.id(), deadline);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "could not remove task " + TaskWire.shown(h.id())
                        + " from the task store", e);
                storeFailed(h, e);
            }
            return;
        }
        String toolName = h.toolNameOrNull();
        if (toolName == null) {
            return;
        }
        try {
            leases.record(record(h, s, serverKey, toolName, null, null), deadline);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not record task " + TaskWire.shown(h.id())
                    + " in the task store", e);
            storeFailed(h, e);
        }
    }

    private static TaskRecord record(TaskHandle h, TaskSnapshot s, String serverKey, String toolName,
                                     @Nullable Map<String, @Nullable Object> result, @Nullable Instant retainUntil) {
        return new TaskRecord(h.id(), serverKey, h.era(), toolName, h.createdAt(), s.ttl(), s.status(), null,
                h.recordLearnedAt(), null, s.inputRequests(), result, retainUntil);
    }

    /**
     * Records the task's end under this instance's lease and, when that fenced write wins, tells the result
     * listener (no lock held). Returns {@code false} when no lease was held here (the caller removes the record as
     * before: a handle from an id).
     */
    private boolean ended(TaskHandle h, TaskSnapshot s, String serverKey, String toolName, Deadline deadline) {
        Map<String, @Nullable Object> result = s.result();
        if (result == null && s.error() != null) {
            Map<String, @Nullable Object> error = new java.util.LinkedHashMap<>();
            error.put("code", s.error().code());
            error.put("message", s.error().message());
            result = Map.of("error", error);
        }
        TaskRecord ended = record(h, s, serverKey, toolName, result, Instant.now().plus(resultRetention));
        switch (leases.complete(ended)) {
            case NOT_HELD -> {
                return false;
            }
            case LOST -> {
                return true;
            }
            case WON -> {
                if (resultListener != null) {
                    try {
                        resultListener.onResult(ended);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "the result listener threw for task "
                                + TaskWire.shown(h.id()) + "; ignored", e);
                    }
                }
                if (resultRetention.isZero()) {
                    // after the listener: the end is recorded already, a failing removal must not cost the delivery
                    // (an ended record is never claimed, and the stores drop it once its retention passed)
                    store.remove(serverKey, h.id(), deadline);
                }
                return true;
            }
        }
        return true;
    }

    /** Tells the builder's store failure listener, if any (no lock is held here); a listener that throws is logged. */
    private void storeFailed(TaskHandle h, RuntimeException e) {
        if (storeFailureListener == null) {
            return;
        }
        try {
            storeFailureListener.accept(h, e);
        } catch (RuntimeException thrown) {
            LOG.log(System.Logger.Level.WARNING, "the store failure listener threw; ignored", thrown);
        }
    }
}
