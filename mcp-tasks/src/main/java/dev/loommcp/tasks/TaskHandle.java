package dev.loommcp.tasks;

import dev.loommcp.Registration;
import dev.loommcp.config.Era;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import java.util.Optional;

/**
 * The {@link McpTask} of this module: one task's identity, its requests ({@code get}, {@code update},
 * {@code cancel}) and what it takes from the server ({@link #apply}), over four package-private parts along their
 * jobs: {@link TaskState} (the last snapshot and the poll and wait bookkeeping, under one lock, with the condition
 * the waiters park on), {@link TaskDelivery} (the store and the listeners told in order, under no lock),
 * {@link TaskPolls} (poll scheduling through the client's {@link PollTimer}, back-off), {@link TaskWait} (the wait
 * for the result: input, TTL backstop; {@link LegacyResult} for a 2025-11-25 task) and {@link TaskCancel}
 * ({@code tasks/cancel}, asked or when a wait gives up), plus {@link TaskPush}.
 * A waiter parks its own thread; polls run on the timer's short-lived poll threads. Thread-safe.
 *
 * <p>A terminal status, or the task's removal, is the last thing the store hears of the task. A waiter returns a
 * final result once the store and the listeners have heard it, or its deadline has passed.
 */
final class TaskHandle implements McpTask {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    private final McpTasks owner;
    final String id;
    /** The id as messages and logs show it ({@link TaskWire#shown}). */
    final String shownId;
    private final @Nullable String toolName;
    final Era era;
    private final Instant clientCreatedAt;
    /** {@link System#nanoTime()} when this client learned of the task: the TTL backstop counts from here. */
    final long learnedNanos;
    private final boolean answeredAtOnce;
    /** When the task's first owner learned of it, from the store's record (a resumed task), or {@code null}. */
    private final @Nullable Instant recordedLearnedAt;
    /** The input keys this client answered (or is answering): each is sent once. */
    final Set<String> claimedKeys = ConcurrentHashMap.newKeySet();

    final TaskState state;
    final TaskDelivery delivery;
    final TaskPolls polls;
    final TaskWait waits;
    final TaskCancel cancels;
    final TaskPush push;

    TaskHandle(McpTasks owner, TaskSnapshot first, @Nullable String toolName) {
        this(owner, first, toolName, false);
    }

    /**
     * A handle to a task the server has not described to this client yet (made from its id, perhaps with a stored
     * status): the first poll goes out at once, not after an interval.
     */
    static TaskHandle ofId(McpTasks owner, TaskSnapshot assumed, @Nullable String toolName,
                           @Nullable Instant recordedLearnedAt) {
        TaskHandle h = new TaskHandle(owner, assumed, toolName, false, recordedLearnedAt);
        h.state.statusUnknown = true;
        h.state.neverHeard = true;
        return h;
    }

    /** @param answeredAtOnce whether the handle stands for a plain result (no task on the server) */
    TaskHandle(McpTasks owner, TaskSnapshot first, @Nullable String toolName, boolean answeredAtOnce) {
        this(owner, first, toolName, answeredAtOnce, null);
    }

    private TaskHandle(McpTasks owner, TaskSnapshot first, @Nullable String toolName, boolean answeredAtOnce,
                       @Nullable Instant recordedLearnedAt) {
        this.recordedLearnedAt = recordedLearnedAt;
        this.answeredAtOnce = answeredAtOnce;
        this.owner = owner;
        this.id = first.taskId();
        this.shownId = TaskWire.shown(id);
        this.toolName = toolName;
        this.era = first.era();
        this.clientCreatedAt = Instant.now();
        this.learnedNanos = System.nanoTime();
        this.state = new TaskState(first);
        this.delivery = new TaskDelivery(this);
        this.polls = new TaskPolls(this);
        this.waits = new TaskWait(this);
        this.cancels = new TaskCancel(this);
        this.push = new TaskPush(owner, id, this::wantsPush, this::pushed);
    }

    /** Whether a listen that just opened is still wanted: the task is open and someone waits. */
    private boolean wantsPush() {
        state.lock.lock();
        try {
            return !state.snapshot.status().isTerminal() && state.failure == null && state.awaiters > 0;
        } finally {
            state.lock.unlock();
        }
    }

    private void pushed(Map<String, Object> params) {
        try {
            apply(TaskWire.parse(params, era, id, "notifications/tasks"), Deadline.NONE);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "ignored a notifications/tasks for task {0}: {1}", shownId,
                    e.getMessage());
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public boolean answeredAtOnce() {
        return answeredAtOnce;
    }

    /** The tasks this handle belongs to. */
    McpTasks owner() {
        return owner;
    }

    @Override
    public Optional<String> toolName() {
        return Optional.ofNullable(toolName);
    }

    /** The tool's name, or {@code null} when unknown (a handle from {@link McpTasks#task} without a record). */
    @Nullable String toolNameOrNull() {
        return toolName;
    }

    @Override
    public Era era() {
        return era;
    }

    @Override
    public TaskSnapshot snapshot() {
        return state.snapshot();
    }

    /**
     * Returns how many {@code tasks/get} polls the driver sent for this task (for tests and benchmarks).
     *
     * @return the count
     */
    long polls() {
        state.lock.lock();
        try {
            return state.polls;
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * Returns when the task was created: the server's time when it said, else when this handle was made. For the
     * record only: the server's clock may differ from this machine's, so nothing is timed from it.
     *
     * @return the instant
     */
    Instant createdAt() {
        TaskSnapshot s = snapshot();
        return s.createdAt() != null ? s.createdAt() : clientCreatedAt;
    }

    /**
     * Returns when this client learned of the task (this machine's clock): the TTL backstop counts from it.
     *
     * @return the instant
     */
    Instant learnedAt() {
        return clientCreatedAt;
    }

    /**
     * Returns when the task was first learned of, for the store's record: the record's own time for a resumed task
     * (so that a store prunes it when its TTL has passed since then), else {@link #learnedAt()}.
     *
     * @return the instant
     */
    @Nullable Instant recordLearnedAt() {
        return recordedLearnedAt != null ? recordedLearnedAt : clientCreatedAt;
    }

    @Override
    public TaskSnapshot get(RequestOptions options) throws InterruptedException {
        Map<String, Object> raw;
        try {
            raw = TaskRequests.send(owner.channel(), "tasks/get", TaskWire.params("taskId", id), options);
        } catch (McpTaskNotFoundException e) {
            owner.forget(this, deadlineOf(options));
            throw e;
        }
        TaskSnapshot s = TaskWire.parse(raw, era, id, "tasks/get result");
        return apply(s, deadlineOf(options));
    }

    @Override
    public void update(Map<String, @Nullable Object> inputResponses, RequestOptions options) throws InterruptedException {
        java.util.Objects.requireNonNull(inputResponses, "inputResponses");
        if (era == Era.LEGACY) {
            throw new McpUnsupportedInEraException("tasks/update", Era.LEGACY,
                    "input of a 2025-11-25 task arrives as server requests, answered by the client's handlers");
        }
        Map<String, Object> fresh = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : inputResponses.entrySet()) {
            if (claimedKeys.add(e.getKey())) {
                fresh.put(e.getKey(), e.getValue());
            }
        }
        sendUpdate(fresh, options);
    }

    /** Sends {@code tasks/update}; keys not delivered may be answered again. */
    void sendUpdate(Map<String, Object> responses, RequestOptions options) throws InterruptedException {
        if (responses.isEmpty()) {
            return;
        }
        try {
            TaskRequests.send(owner.channel(), "tasks/update", TaskWire.params("taskId", id, "inputResponses",
                    responses), options);
        } catch (RuntimeException | InterruptedException e) {
            claimedKeys.removeAll(responses.keySet()); // not delivered: may be answered again
            throw e;
        }
    }

    @Override
    public void cancel(RequestOptions options) throws InterruptedException {
        cancels.cancel(options);
    }

    @Override
    public CallToolResult await(RequestOptions options) throws InterruptedException {
        Map<String, Object> raw = waits.awaitRaw(options);
        return owner.channel().toolResult(toolName == null ? "(task " + shownId + ")" : toolName, raw);
    }

    @Override
    public CallToolResult await(Deadline deadline) throws InterruptedException {
        java.util.Objects.requireNonNull(deadline, "deadline");
        RequestOptions options = deadline.isNone() ? RequestOptions.DEFAULT
                : RequestOptions.ofTimeout(Duration.ofNanos(Math.max(1, deadline.remainingNanos())));
        return await(options);
    }

    @Override
    public Registration addListener(TaskListener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        Registration registration = delivery.addListener(listener);
        polls.watch();
        return registration;
    }

    // ---------------------------------------------------------------------------------------------------- driving

    /**
     * Takes what the server said of the task. A terminal status is final: a later snapshot is ignored. A non-terminal
     * snapshot older than the known one (both with {@code lastUpdatedAt}) is ignored: poll answers and pushed or
     * notified status can arrive out of order. A terminal snapshot always applies. Fields the new snapshot leaves
     * out (a push may omit the TTL or interval) keep their last value. A change of status or message is queued for
     * the store and the listeners in the order it was chosen, and delivered ({@link TaskDelivery}) before the waiters
     * wake, unless another thread is delivering: that thread then delivers it, after the earlier ones.
     *
     * @param s        the snapshot
     * @param deadline how long the store may be waited for on behalf of the caller ({@link Deadline#NONE}: the
     *                 store's own bound)
     * @return the handle's snapshot after it
     */
    TaskSnapshot apply(TaskSnapshot s, Deadline deadline) {
        TaskSnapshot before;
        TaskSnapshot now;
        state.lock.lock();
        try {
            before = state.snapshot;
            if (before.status().isTerminal()) {
                return before;
            }
            state.statusUnknown = false;
            state.neverHeard = false;
            if (!s.status().isTerminal() && s.lastUpdatedAt() != null && before.lastUpdatedAt() != null
                    && s.lastUpdatedAt().isBefore(before.lastUpdatedAt())) {
                // an older word arriving late (a status notification overtaken by a poll answer, or the reverse)
                LOG.log(System.Logger.Level.DEBUG, "ignored a stale status {0} of task {1} (last updated {2},"
                        + " known {3})", s.status().wireName(), shownId, s.lastUpdatedAt(), before.lastUpdatedAt());
                return before;
            }
            now = TaskSnapshot.newBuilder(id, era, s.status()).statusMessage(s.statusMessage())
                    .createdAt(s.createdAt() != null ? s.createdAt() : before.createdAt())
                    .lastUpdatedAt(s.lastUpdatedAt() != null ? s.lastUpdatedAt() : before.lastUpdatedAt())
                    .ttl(s.ttl() != null ? s.ttl() : before.ttl())
                    .pollInterval(s.pollInterval() != null ? s.pollInterval() : before.pollInterval())
                    .inputRequests(s.inputRequests()).result(s.result()).error(s.error()).build();
            state.snapshot = now;
            if (before.status() != now.status()
                    || !java.util.Objects.equals(before.statusMessage(), now.statusMessage())) {
                delivery.queue(now, !state.recordFinal, true, deadline);
                state.recordFinal |= now.status().isTerminal();
            }
        } finally {
            state.lock.unlock();
        }
        delivery.deliver(deadline); // the store and the listeners learn a change before the waiters wake
        wake();
        if (now.status().isTerminal()) {
            push.close();
        }
        return now;
    }

    /**
     * Records the task as it is now in the store (at its creation), unless its end or removal is queued already.
     *
     * @param deadline how long the store may be waited for
     */
    void recordCreated(Deadline deadline) {
        state.lock.lock();
        try {
            if (state.recordFinal || state.snapshot.status().isTerminal()) {
                return;
            }
            delivery.queue(state.snapshot, true, false, deadline);
        } finally {
            state.lock.unlock();
        }
        delivery.deliver(deadline);
    }

    /**
     * Removes the task from the store (it ended, expired, was given up or is unknown to the server), after whatever
     * the store is still to hear; nothing recorded later brings it back.
     *
     * @param deadline how long the store may be waited for
     */
    void unrecord(Deadline deadline) {
        state.lock.lock();
        try {
            if (state.recordFinal) {
                return;
            }
            state.recordFinal = true;
            delivery.queue(null, true, false, deadline);
        } finally {
            state.lock.unlock();
        }
        delivery.deliver(deadline);
    }

    /**
     * Ends every wait on this handle with a failure (the server no longer knows the task, the client closed, polls
     * keep failing). The first failure wins.
     *
     * @param e the failure
     */
    void fail(RuntimeException e) {
        if (e instanceof McpTaskNotFoundException) {
            owner.forget(this, Deadline.NONE); // before the waiters wake
        }
        state.lock.lock();
        try {
            if (state.failure == null) {
                state.failure = e;
            }
            state.changed.signalAll();
        } finally {
            state.lock.unlock();
        }
        push.close();
    }

    /** Wakes the waiters (a token fired, the client closed). */
    void wake() {
        state.wake();
    }

    /** Runs one poll ({@link TaskPolls#pollOnce}); what the client's {@link PollTimer} calls. */
    void pollOnce() {
        polls.pollOnce();
    }

    static Deadline deadlineOf(RequestOptions options) {
        Deadline d = Deadline.NONE;
        if (options.deadline().isPresent()) {
            d = Deadline.at(options.deadline().get());
        }
        if (options.timeout().isPresent()) {
            d = d.earliest(Deadline.after(options.timeout().get()));
        }
        return d;
    }

    @Override
    public String toString() {
        return "McpTask[" + shownId + ", " + era + ", " + snapshot().status().wireName() + "]";
    }
}
