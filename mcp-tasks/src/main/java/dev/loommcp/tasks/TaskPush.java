package dev.loommcp.tasks;

import dev.loommcp.RequestOptions;
import dev.loommcp.event.Subscription;
import dev.loommcp.spi.TaskChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The push half of one task's driver (MCP tasks extension §Task Status Notifications): one
 * {@code subscriptions/listen} with the task's id, opened once when a waiter starts and the server declares the
 * extension, within the client's cap of open listens; closed when the task ends, fails or nobody waits any more.
 * Polling goes on beside it. Thread-safe.
 */
final class TaskPush {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    private final McpTasks owner;
    private final String taskId;
    private final BooleanSupplier stillWanted;
    private final Consumer<Map<String, Object>> onTask;
    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private @Nullable Subscription listen;
    private boolean tried;

    /**
     * @param stillWanted whether a listen that just opened should be kept (the task is open and someone waits)
     * @param onTask      receives each {@code notifications/tasks} params
     */
    TaskPush(McpTasks owner, String taskId, BooleanSupplier stillWanted, Consumer<Map<String, Object>> onTask) {
        this.owner = owner;
        this.taskId = taskId;
        this.stillWanted = stillWanted;
        this.onTask = onTask;
    }

    /** Opens the listen, once per task, if push is on and a slot is free; failures leave the task polled only. */
    void open() {
        lock.lock();
        try {
            if (tried || !owner.push()) {
                return;
            }
            tried = true;
        } finally {
            lock.unlock();
        }
        if (!owner.takePushSlot()) {
            return; // enough listens open: this task is polled only
        }
        boolean kept = false;
        try {
            kept = listen();
        } finally {
            if (!kept) {
                owner.releasePushSlot();
            }
        }
    }

    /** Opens the listen; returns whether it is kept (then its slot is released when it closes). */
    private boolean listen() {
        TaskChannel channel = owner.channel();
        try {
            Map<String, Object> ext = channel.server().capabilities().extensions();
            if (ext == null || !ext.containsKey(TaskChannel.EXTENSION)) {
                return false;
            }
            Subscription sub = channel.listenTasks(List.of(taskId), onTask,
                    RequestOptions.ofTimeout(TaskCancel.CANCEL_BOUND));
            if (!stillWanted.getAsBoolean()) {
                sub.close();
                return false;
            }
            lock.lock();
            try {
                listen = sub;
            } finally {
                lock.unlock();
            }
            if (!stillWanted.getAsBoolean()) {
                close(); // the task ended (or its last waiter left) while the listen was being kept: close it here
            }
            return true; // the slot is released by close()
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "no push for task {0}, polling only: {1}", taskId, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** Closes the listen if one is open and frees its slot; never throws. */
    void close() {
        Subscription sub;
        lock.lock();
        try {
            sub = listen;
            listen = null;
        } finally {
            lock.unlock();
        }
        if (sub != null) {
            try {
                sub.close();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "closing the task listen of {0} failed: {1}", taskId,
                        e.toString());
            } finally {
                owner.releasePushSlot();
            }
        }
    }
}
