package dev.loommcp.tasks;

import dev.loommcp.Deadline;
import dev.loommcp.McpClosedException;
import dev.loommcp.Registration;
import dev.loommcp.RequestOptions;
import dev.loommcp.config.Era;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskSupport;
import dev.loommcp.spi.ToolCallAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@link TaskSupport} of an {@link McpTasks} ({@link McpTasks#support()}): binding to one live client at a time,
 * the 2025-11-25 augmentation, awaiting a task answer, and letting the client's share go when it closes (the status
 * listener, the poll timer, the open handles, the leases). Thread-safe: the binding is under the tasks' bind lock,
 * and what it releases runs after that lock.
 */
final class TasksDriver implements TaskSupport {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    private static final String STATUS_NOTIFICATION = "notifications/tasks/status";

    private final McpTasks t;

    TasksDriver(McpTasks tasks) {
        this.t = tasks;
    }


    @Override
    public void bind(TaskChannel ch) {
        Objects.requireNonNull(ch, "channel");
        Runnable releasePrevious;
        t.bindLock.lock();
        try {
            TaskChannel previous = t.channel;
            if (previous != null && !previous.closeToken().isCancelled()) {
                throw new IllegalStateException("this McpTasks is installed on a client that is still open: one"
                        + " McpTasks serves one live client at a time; close that client first, or build one"
                        + " McpTasks per client (per server)");
            }
            // the previous client closed: what its close has not released yet goes now
            releasePrevious = previous == null ? () -> { } : detach();
            t.timer = new PollTimer(ch.threads(), TaskHandle::pollOnce);
            t.channel = ch;
            TaskOwner.live(t.instanceId);
            t.leases.start(ch.threads());
        } finally {
            t.bindLock.unlock();
        }
        releasePrevious.run();
    }

    @Override
    public TaskAugmentation augmentation(String toolName, RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(toolName, "toolName");
        return LegacyAugmentation.of(t.channel(), toolName, true, t.legacyTtl,
                options == null ? RequestOptions.DEFAULT : options);
    }

    @Override
    public CallToolResult awaitResult(ToolCallAnswer.Pending pending, RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(pending, "pending");
        TaskChannel ch = t.channel();
        RequestOptions o = options == null ? RequestOptions.DEFAULT : options;
        TaskHandle h = t.created(pending.toolName(), pending.creation(), ch.server().era(),
                TaskHandle.deadlineOf(o));
        return h.await(o);
    }

    @Override
    public void clientClosed() {
        Runnable release;
        t.bindLock.lock();
        try {
            TaskChannel ch = t.channel;
            if (ch != null && !ch.closeToken().isCancelled()) {
                return; // a late close of an earlier client: bind() released it when the new one came
            }
            release = detach();
        } finally {
            t.bindLock.unlock();
        }
        release.run();
    }

    /**
     * Under the bind lock: takes the bound client's share (the status listener, the poll timer, the open handles)
     * and returns what releases it, to run after the lock: the listener closed, the timer stopped, the handles
     * failed as closed. This instance's records may be taken over from now on.
     */
    private Runnable detach() {
        TaskOwner.gone(t.instanceId);
        Runnable releaseLeases = t.leases.stop();
        List<Registration> driving = new ArrayList<>(t.driven.values());
        t.driven.clear();
        Registration reg = t.statusRegistration;
        t.statusRegistration = null;
        PollTimer pollTimer = t.timer;
        List<TaskHandle> handles = new ArrayList<>(t.open.values());
        t.open.clear();
        return () -> {
            if (reg != null) {
                try {
                    reg.close();
                } catch (RuntimeException e) { // a channel of another implementation may break the contract
                    LOG.log(System.Logger.Level.DEBUG, "closing the status listener failed: {0}", e.toString());
                }
            }
            if (pollTimer != null) {
                pollTimer.close();
            }
            for (Registration d : driving) {
                d.close();
            }
            for (TaskHandle h : handles) {
                h.fail(new McpClosedException("the client closed", null));
            }
            releaseLeases.run(); // a clean close: the tasks may be claimed by another replica at once
        };
    }

    /** Legacy: hear notifications/tasks/status as a hint (C.6.7); registered once, at the first legacy task. */
    void listenToStatusNotifications() {
        t.bindLock.lock();
        try {
            if (t.statusRegistration != null || t.channel == null) {
                return;
            }
            t.statusRegistration = t.channel.onNotification(STATUS_NOTIFICATION, this::statusNotification);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot hear " + STATUS_NOTIFICATION + "; polling only", e);
        } finally {
            t.bindLock.unlock();
        }
    }

    private void statusNotification(Map<String, Object> params) {
        Object id = params == null ? null : params.get("taskId");
        TaskHandle h = id instanceof String s ? t.open.get(s) : null;
        if (h == null) {
            return;
        }
        try {
            h.apply(TaskWire.parse(params, Era.LEGACY, h.id(), STATUS_NOTIFICATION), Deadline.NONE);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "ignored a {0} for task {1}: {2}", STATUS_NOTIFICATION,
                    TaskWire.shown(h.id()),
                    e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "McpTasks.support()[" + t.open.size() + " open tasks]";
    }
}
