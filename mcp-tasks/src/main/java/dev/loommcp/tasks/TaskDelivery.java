package dev.loommcp.tasks;

import dev.loommcp.Registration;
import dev.loommcp.internal.concurrent.SerialDelivery;
import dev.loommcp.Deadline;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the store and the listeners of one task hear, in order: each change is chosen under the handle's lock and
 * queued there ({@link #queue}), with what the store should do (record it, or remove the task); the queue is
 * delivered after the lock is released, by one thread at a time ({@link #deliver}, through {@link SerialDelivery}), so
 * two answers applied at once reach the store and the listeners in the order they were chosen, and nothing is told
 * under a lock. Thread-safe.
 */
final class TaskDelivery {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /**
     * One thing to tell: the store (when {@code store}: record the snapshot; remove the task when it is terminal or
     * {@code null}) and the listeners (when {@code listeners}), waiting for the store at most until {@code deadline}.
     */
    private record Delivery(TaskSnapshot snapshot, boolean store, boolean listeners, Deadline deadline) {
    }

    private final TaskHandle handle;
    private final List<TaskListener> listeners = new CopyOnWriteArrayList<>();
    /** What the store and the listeners are still to hear, queued under the lock in the order it was chosen. */
    private final SerialDelivery<Delivery> deliveries = new SerialDelivery<>();

    TaskDelivery(TaskHandle handle) {
        this.handle = handle;
    }

    /**
     * Queues one change; called under the handle's lock, so that the queue keeps the order the changes were chosen.
     *
     * @param snapshot  what to record, or {@code null} to remove the task from the store
     * @param store     whether the store hears it
     * @param listeners whether the listeners hear it
     * @param deadline  how long the store may be waited for
     */
    void queue(TaskSnapshot snapshot, boolean store, boolean listeners, Deadline deadline) {
        deliveries.add(new Delivery(snapshot, store, listeners, deadline));
    }

    /**
     * Delivers the queued changes in order, holding no lock while the store or a listener runs, one thread at a time
     * ({@link SerialDelivery}): a thread that finds another delivering (or that is delivering itself, further up its
     * stack: a listener that polls the task) leaves its change to it.
     *
     * @param bound the caller's deadline for the store (each change also keeps the deadline it was queued with)
     */
    void deliver(Deadline bound) {
        deliveries.deliver(d -> {
            if (d.store()) {
                handle.owner().store(handle, d.snapshot(), d.deadline().earliest(bound));
            }
            if (d.listeners()) {
                dispatch(d.snapshot());
            }
        });
    }

    /**
     * Waits until the store and the listeners have heard every change queued so far (delivering them itself when no
     * one else is), within {@code deadline}; at once when this thread is the one delivering (a listener that waits).
     */
    void awaitDelivered(Deadline deadline) throws InterruptedException {
        do {
            deliver(deadline);
        } while (!deliveries.awaitDelivered(deadline.remainingNanos()) && !deadline.isExpired());
    }

    /** Adds a listener; the registration removes it, once (another registration of the same listener stays). */
    Registration addListener(TaskListener listener) {
        listeners.add(listener);
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                listeners.remove(listener);
            }
        };
    }

    /** Whether anyone listens. */
    boolean hasListeners() {
        return !listeners.isEmpty();
    }

    /** Tells the listeners; only the delivering thread calls it ({@link #deliver}), so one change at a time. */
    private void dispatch(TaskSnapshot s) {
        for (TaskListener l : listeners) {
            try {
                l.onStatus(handle, s);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a TaskListener of task " + handle.shownId + " threw; ignored",
                        e);
            }
        }
    }
}
