package dev.loommcp.tasks;

import dev.loommcp.CancellationToken;
import dev.loommcp.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClosedException;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpTransportException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.concurrent.SerialDelivery;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.spi.Deadline;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link McpTask} of this module: a task's last snapshot, its waiters and listeners, and the driver logic of one
 * task (poll scheduling through the client's {@link PollTimer}, push, input, cancel, TTL backstop). A waiter parks
 * its own thread on this handle's condition; polls run on the timer's short-lived poll threads. Thread-safe.
 *
 * <p>What the store and the listeners hear: each change is chosen under the handle's lock and queued there, in that
 * order, with what the store should do (record it, or remove the task); the queue is delivered after the lock is
 * released, by one thread at a time ({@link #deliver}, through {@link SerialDelivery}), so two answers applied at
 * once reach the store and the listeners in the order they were chosen, and nothing is told under a lock. A terminal
 * status, or the task's removal, is the last thing the store hears of the task. A waiter returns a final result once
 * the store and the listeners have heard it, or its deadline has passed ({@link #awaitDelivered}).
 */
final class TaskHandle implements McpTask {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    /** How long a best-effort {@code tasks/cancel} may take (issue 11 seam rules: bounded to 5 s). */
    static final Duration CANCEL_BOUND = Duration.ofSeconds(5);
    /** The timeout of one poll request. */
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(30);
    /** Consecutive failed polls (other than rate limits) after which waiters get the failure. */
    static final int MAX_POLL_FAILURES = 5;
    /** The {@code tasks/result} timeout when neither the caller nor the task's TTL bounds it. */
    static final Duration LEGACY_RESULT_TIMEOUT = Duration.ofHours(24);

    private final McpTasks owner;
    private final String id;
    /** The id as messages and logs show it ({@link TaskWire#shown}). */
    private final String shownId;
    private final String toolName;
    private final Era era;
    private final Instant clientCreatedAt;
    /** {@link System#nanoTime()} when this client learned of the task: the TTL backstop counts from here. */
    private final long learnedNanos;
    private final boolean answeredAtOnce;
    /** When the task's first owner learned of it, from the store's record (a resumed task), or {@code null}. */
    private final Instant recordedLearnedAt;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<TaskListener> listeners = new CopyOnWriteArrayList<>();
    /** What the store and the listeners are still to hear, queued under the lock in the order it was chosen. */
    private final SerialDelivery<Delivery> deliveries = new SerialDelivery<>();
    private final Set<String> claimedKeys = ConcurrentHashMap.newKeySet();
    private final TaskPush push;

    // guarded by lock
    private TaskSnapshot snapshot;
    private RuntimeException failure;
    private int awaiters;
    private boolean scheduled;
    private boolean polling;
    private long lastPollNanos;
    private int backoffShift;
    private int failedPolls;
    private long polls;
    /** The status is not yet known from the server (a handle made from an id): the first poll goes out at once. */
    private boolean statusUnknown;
    /** Made from an id and the server has not answered a poll of it yet: a refused first poll fails the waiters. */
    private boolean neverHeard;
    /** The store is to hear no more of the task: its end or its removal is queued (or told) already. */
    private boolean recordFinal;

    /**
     * One thing to tell: the store (when {@code store}: record the snapshot; remove the task when it is terminal or
     * {@code null}) and the listeners (when {@code listeners}), waiting for the store at most until {@code deadline}.
     */
    private record Delivery(TaskSnapshot snapshot, boolean store, boolean listeners, Deadline deadline) {
    }

    TaskHandle(McpTasks owner, TaskSnapshot first, String toolName) {
        this(owner, first, toolName, false);
    }

    /**
     * A handle to a task the server has not described to this client yet (made from its id, perhaps with a stored
     * status): the first poll goes out at once, not after an interval.
     */
    static TaskHandle ofId(McpTasks owner, TaskSnapshot assumed, String toolName, Instant recordedLearnedAt) {
        TaskHandle h = new TaskHandle(owner, assumed, toolName, false, recordedLearnedAt);
        h.statusUnknown = true;
        h.neverHeard = true;
        return h;
    }

    /** @param answeredAtOnce whether the handle stands for a plain result (no task on the server) */
    TaskHandle(McpTasks owner, TaskSnapshot first, String toolName, boolean answeredAtOnce) {
        this(owner, first, toolName, answeredAtOnce, null);
    }

    private TaskHandle(McpTasks owner, TaskSnapshot first, String toolName, boolean answeredAtOnce,
                       Instant recordedLearnedAt) {
        this.recordedLearnedAt = recordedLearnedAt;
        this.answeredAtOnce = answeredAtOnce;
        this.owner = owner;
        this.id = first.taskId();
        this.shownId = TaskWire.shown(id);
        this.toolName = toolName;
        this.era = first.era();
        this.snapshot = first;
        this.clientCreatedAt = Instant.now();
        this.learnedNanos = System.nanoTime();
        this.lastPollNanos = System.nanoTime();
        this.push = new TaskPush(owner, id, this::wantsPush, this::pushed);
    }

    /** Whether a listen that just opened is still wanted: the task is open and someone waits. */
    private boolean wantsPush() {
        lock.lock();
        try {
            return !snapshot.status().isTerminal() && failure == null && awaiters > 0;
        } finally {
            lock.unlock();
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
    public String toolName() {
        return toolName;
    }

    @Override
    public Era era() {
        return era;
    }

    @Override
    public TaskSnapshot snapshot() {
        lock.lock();
        try {
            return snapshot;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns how many {@code tasks/get} polls the driver sent for this task (for tests and benchmarks).
     *
     * @return the count
     */
    long polls() {
        lock.lock();
        try {
            return polls;
        } finally {
            lock.unlock();
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
    Instant recordLearnedAt() {
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
    public void update(Map<String, Object> inputResponses, RequestOptions options) throws InterruptedException {
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

    private void sendUpdate(Map<String, Object> responses, RequestOptions options) throws InterruptedException {
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
        if (snapshot().status().isTerminal()) {
            return;
        }
        Map<String, Object> raw;
        try {
            raw = TaskRequests.send(owner.channel(), "tasks/cancel", TaskWire.params("taskId", id), options);
        } catch (McpTaskNotFoundException e) {
            // 2025-11-25: -32602 also means "already terminal"; the task's status tells which
            if (era != Era.LEGACY || !endedMeanwhile(options)) {
                throw e;
            }
            return;
        }
        if (era == Era.LEGACY && raw != null && raw.get("status") != null) {
            try {
                apply(TaskWire.parse(raw, era, id, "tasks/cancel result"), deadlineOf(options));
            } catch (McpProtocolException e) {
                LOG.log(System.Logger.Level.DEBUG, "tasks/cancel answer of task {0} not readable: {1}", shownId,
                        e.getMessage());
            }
        }
    }

    /** Whether {@code tasks/get} now finds the task terminal (the snapshot then holds it); failures mean no. */
    private boolean endedMeanwhile(RequestOptions options) throws InterruptedException {
        try {
            return get(options).status().isTerminal();
        } catch (McpException e) {
            return false;
        }
    }

    @Override
    public CallToolResult await(RequestOptions options) throws InterruptedException {
        Map<String, Object> raw = awaitRaw(options);
        return owner.channel().toolResult(toolName == null ? "(task " + shownId + ")" : toolName, raw);
    }

    @Override
    public CallToolResult await(Deadline deadline) throws InterruptedException {
        java.util.Objects.requireNonNull(deadline, "deadline");
        RequestOptions options = deadline.isNone() ? RequestOptions.DEFAULT
                : RequestOptions.timeout(Duration.ofNanos(Math.max(1, deadline.remainingNanos())));
        return await(options);
    }

    @Override
    public AutoCloseable addListener(TaskListener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        watch();
        return () -> listeners.remove(listener);
    }

    // ---------------------------------------------------------------------------------------------------- driving

    /**
     * Takes what the server said of the task. A terminal status is final: a later snapshot is ignored. A non-terminal
     * snapshot older than the known one (both with {@code lastUpdatedAt}) is ignored: poll answers and pushed or
     * notified status can arrive out of order. A terminal snapshot always applies. Fields the new snapshot leaves
     * out (a push may omit the TTL or interval) keep their last value. A change of status or message is queued for
     * the store and the listeners in the order it was chosen, and delivered ({@link #deliver}) before the waiters
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
        lock.lock();
        try {
            before = snapshot;
            if (before.status().isTerminal()) {
                return before;
            }
            statusUnknown = false;
            neverHeard = false;
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
            snapshot = now;
            if (before.status() != now.status()
                    || !java.util.Objects.equals(before.statusMessage(), now.statusMessage())) {
                deliveries.add(new Delivery(now, !recordFinal, true, deadline));
                recordFinal |= now.status().isTerminal();
            }
        } finally {
            lock.unlock();
        }
        deliver(deadline); // the store and the listeners learn a change before the waiters wake
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
        lock.lock();
        try {
            if (recordFinal || snapshot.status().isTerminal()) {
                return;
            }
            deliveries.add(new Delivery(snapshot, true, false, deadline));
        } finally {
            lock.unlock();
        }
        deliver(deadline);
    }

    /**
     * Removes the task from the store (it ended, expired, was given up or is unknown to the server), after whatever
     * the store is still to hear; nothing recorded later brings it back.
     *
     * @param deadline how long the store may be waited for
     */
    void unrecord(Deadline deadline) {
        lock.lock();
        try {
            if (recordFinal) {
                return;
            }
            recordFinal = true;
            deliveries.add(new Delivery(null, true, false, deadline));
        } finally {
            lock.unlock();
        }
        deliver(deadline);
    }

    /**
     * Delivers the queued changes in order, holding no lock while the store or a listener runs, one thread at a time
     * ({@link SerialDelivery}): a thread that finds another delivering (or that is delivering itself, further up its
     * stack: a listener that polls the task) leaves its change to it.
     *
     * @param bound the caller's deadline for the store (each change also keeps the deadline it was queued with)
     */
    private void deliver(Deadline bound) {
        deliveries.deliver(d -> {
            if (d.store()) {
                owner.store(this, d.snapshot(), d.deadline().earliest(bound));
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
    private void awaitDelivered(Deadline deadline) throws InterruptedException {
        do {
            deliver(deadline);
        } while (!deliveries.awaitDelivered(deadline.remainingNanos()) && !deadline.isExpired());
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
        lock.lock();
        try {
            if (failure == null) {
                failure = e;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        push.close();
    }

    /** Wakes the waiters (a token fired, the client closed). */
    void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Schedules the next poll if someone waits or listens, the task is open, and none is scheduled or running. */
    void watch() {
        long due;
        lock.lock();
        try {
            if (scheduled || polling || failure != null || snapshot.status().isTerminal()
                    || (awaiters == 0 && listeners.isEmpty())) {
                return;
            }
            scheduled = true;
            due = statusUnknown ? System.nanoTime() : lastPollNanos + interval(snapshot).toNanos();
        } finally {
            lock.unlock();
        }
        boolean ok;
        try {
            ok = owner.timer().schedule(this, due);
        } catch (RuntimeException e) {
            ok = false;
            fail(e);
        }
        if (!ok) {
            lock.lock();
            try {
                scheduled = false;
            } finally {
                lock.unlock();
            }
        }
    }

    /** Runs one {@code tasks/get} poll; on a poll thread of the timer. */
    void pollOnce() {
        lock.lock();
        try {
            scheduled = false;
            if (failure != null || snapshot.status().isTerminal() || owner.channel().closeToken().isCancelled()
                    || (awaiters == 0 && listeners.isEmpty())) {
                return; // nobody waits or listens any more
            }
            polling = true;
            statusUnknown = false; // a failed first poll is retried after an interval, not at once
            polls++;
        } finally {
            lock.unlock();
        }
        try {
            Map<String, Object> raw = TaskRequests.send(owner.channel(), "tasks/get", TaskWire.params("taskId", id),
                    RequestOptions.newBuilder().timeout(POLL_TIMEOUT).token(owner.channel().closeToken()).build());
            apply(TaskWire.parse(raw, era, id, "tasks/get result"), Deadline.NONE);
            lock.lock();
            try {
                failedPolls = 0;
                backoffShift = 0;
            } finally {
                lock.unlock();
            }
        } catch (McpTaskNotFoundException | McpClosedException e) {
            fail(e);
        } catch (InterruptedException e) {
            fail(new McpCancelledException("the poll of task " + shownId + " was interrupted"));
        } catch (RuntimeException e) {
            boolean rateLimited = isRateLimit(e);
            boolean give;
            lock.lock();
            try {
                backoffShift = Math.min(backoffShift + 1, 16);
                // a handle made from an id that the server never answered for: its refusal of the first poll is
                // the caller's answer, as get() gives it (an id it cannot take is not worth polling again)
                give = isPermanent(e) || (!rateLimited && neverHeard)
                        || (!rateLimited && ++failedPolls >= MAX_POLL_FAILURES);
            } finally {
                lock.unlock();
            }
            LOG.log(System.Logger.Level.DEBUG, "poll of task {0} failed ({1}), backing off: {2}", shownId,
                    rateLimited ? "rate limited" : "attempt " + failedPolls, e.toString());
            if (give || owner.channel().closeToken().isCancelled()) {
                fail(e);
            }
        } finally {
            lock.lock();
            try {
                polling = false;
                lastPollNanos = System.nanoTime();
            } finally {
                lock.unlock();
            }
            watch();
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
        return e instanceof dev.loommcp.McpMissingCapabilityException || e instanceof McpProtocolException
                || e instanceof McpUnsupportedInEraException
                || (e instanceof McpRpcException r && (r.code() == JsonRpcError.METHOD_NOT_FOUND
                || r.code() == JsonRpcError.INVALID_PARAMS));
    }

    /** The interval to the next poll: the server's latest, clamped to the builder's bounds, doubled per back-off. */
    private Duration interval(TaskSnapshot s) {
        Duration min = owner.minPollInterval();
        Duration max = owner.maxPollInterval();
        Duration base = s.pollInterval() != null ? s.pollInterval()
                : (max.compareTo(Duration.ofSeconds(1)) < 0 ? max : Duration.ofSeconds(1));
        if (base.compareTo(min) < 0) {
            base = min;
        }
        if (base.compareTo(max) > 0) {
            base = max;
        }
        if (backoffShift > 0) {
            Duration backed = base.multipliedBy(1L << backoffShift);
            base = backed.compareTo(max) > 0 ? (base.compareTo(max) < 0 ? max : base) : backed;
        }
        return base;
    }

    /** Tells the listeners; only the delivering thread calls it ({@link #deliver}), so one change at a time. */
    private void dispatch(TaskSnapshot s) {
        for (TaskListener l : listeners) {
            try {
                l.onStatus(this, s);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a TaskListener of task " + shownId + " threw; ignored", e);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------- await

    /**
     * Waits for the task's final result as plain JSON (see {@link McpTask#await(RequestOptions)}).
     *
     * @param options deadline and token
     * @return the final {@code CallToolResult} as plain JSON
     * @throws InterruptedException if interrupted (the task is cancelled first, best effort)
     */
    Map<String, Object> awaitRaw(RequestOptions options) throws InterruptedException {
        java.util.Objects.requireNonNull(options, "options");
        Deadline deadline = deadlineOf(options);
        CancellationToken token = options.token().orElse(null);
        TaskSnapshot now = snapshot();
        if (now.status().isTerminal() && (era == Era.MODERN || now.result() != null || now.error() != null
                || now.status() == TaskStatus.CANCELLED)) {
            awaitDelivered(deadline);
            return finish(now);
        }
        lock.lock();
        try {
            awaiters++;
        } finally {
            lock.unlock();
        }
        CancellationToken.Registration onToken = token == null ? null : token.onCancel(this::wake);
        CancellationToken.Registration onClose = owner.channel().closeToken().onCancel(this::wake);
        try {
            watch();
            if (era == Era.MODERN) {
                return awaitModern(deadline, token, options);
            }
            Map<String, Object> raw = LegacyResult.await(this, deadline, token);
            awaitDelivered(deadline);
            return raw;
        } catch (InterruptedException e) {
            cancelQuietly("the waiting thread was interrupted");
            throw e;
        } finally {
            onClose.close();
            if (onToken != null) {
                onToken.close();
            }
            boolean last;
            lock.lock();
            try {
                last = --awaiters == 0;
            } finally {
                lock.unlock();
            }
            if (last) {
                push.close();
            }
        }
    }

    private Map<String, Object> awaitModern(Deadline deadline, CancellationToken token, RequestOptions options)
            throws InterruptedException {
        push.open();
        while (true) {
            TaskSnapshot s;
            RuntimeException failed;
            lock.lock();
            try {
                s = snapshot;
                failed = failure;
            } finally {
                lock.unlock();
            }
            if (s.status().isTerminal()) {
                awaitDelivered(deadline);
                return finish(s);
            }
            checkAbandoned(deadline, token, failed);
            if (s.status() == TaskStatus.INPUT_REQUIRED && !s.inputRequests().isEmpty()) {
                answerInputs(s, deadline, token, options);
            }
            lock.lock();
            try {
                if (snapshot == s && failure == null && !deadline.isExpired()
                        && (token == null || !token.isCancelled()) && !clientClosed()) {
                    long wait = Math.min(deadline.remainingNanos(), ttlRemainingNanos(s));
                    if (wait > 0) {
                        changed.awaitNanos(wait);
                    }
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void answerInputs(TaskSnapshot s, Deadline deadline, CancellationToken token, RequestOptions options)
            throws InterruptedException {
        Map<String, Object> fresh = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : s.inputRequests().entrySet()) {
            if (claimedKeys.add(e.getKey())) {
                fresh.put(e.getKey(), e.getValue());
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        RequestOptions handlerOptions = withDeadline(deadline, token, options);
        Map<String, Object> answers;
        try {
            answers = owner.channel().answerInputRequests(fresh, handlerOptions);
        } catch (RuntimeException | InterruptedException e) {
            claimedKeys.removeAll(fresh.keySet()); // not answered: may be given later (update) or asked again
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
                claimedKeys.remove(key);
            }
        }
        sendUpdate(responses, handlerOptions);
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
            cancelQuietly("the caller's token fired");
            throw new McpCancelledException("waiting for task " + shownId + " was cancelled (" + token.reason()
                    + "); tasks/cancel was sent");
        }
        if (deadline.isExpired()) {
            cancelQuietly("the caller's deadline passed");
            throw new McpTimeoutException("task " + shownId + " did not end before the caller's deadline; tasks/cancel"
                    + " was sent");
        }
        TaskSnapshot s = snapshot();
        if (ttlRemainingNanos(s) == 0) {
            owner.forget(this, deadline);
            throw new McpTimeoutException("task " + shownId + " passed its TTL of " + s.ttl().toMillis()
                    + " ms (counted from " + learnedAt() + ", when this client learned of it) with no terminal"
                    + " status");
        }
    }

    /**
     * The failure of a wait that the client's end ended: when a transport failure closed the client, an exception
     * that says the connection was lost and carries that failure; after the owner's close, that the client closed.
     *
     * @param seen the closed exception the wait saw, or {@code null}
     */
    McpClosedException closedWhileWaiting(McpClosedException seen) {
        Throwable cause = owner.channel().closeCause();
        if (cause != null) {
            return new McpClosedException("the connection to the server was lost while waiting for task " + shownId
                    + ": " + (cause.getMessage() == null ? cause.toString() : cause.getMessage()), cause);
        }
        return new McpClosedException("the client closed while waiting for task " + shownId, seen);
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
        long budget = saturatedNanos(s.ttl().plus(interval(s)));
        long elapsed = System.nanoTime() - learnedNanos;
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
                    throw new McpProtocolException("task " + shownId + " is completed but its result is missing");
                }
                return s.result();
            }
            case FAILED -> {
                if (s.result() != null) {
                    return s.result(); // legacy: a tool result with isError ends the task failed; still a result
                }
                JsonRpcError error = s.error() != null ? s.error()
                        : new JsonRpcError(JsonRpcError.INTERNAL_ERROR, "task " + shownId + " failed"
                        + (s.statusMessage() == null ? "" : ": " + TaskWire.shownMessage(s.statusMessage())), null);
                throw new McpTaskFailedException("tools/call", toolName, id, null, error);
            }
            case CANCELLED -> throw cancelled(s);
            default -> throw new IllegalStateException("not terminal: " + s.status());
        }
    }

    McpCancelledException cancelled(TaskSnapshot s) {
        return new McpCancelledException("task " + shownId + " was cancelled"
                + (s.statusMessage() == null ? "" : ": " + TaskWire.shownMessage(s.statusMessage())));
    }

    /** Sends a bounded, best-effort {@code tasks/cancel} (never on an interrupted thread: the flag is kept). */
    void cancelQuietly(String why) {
        boolean interrupted = Thread.interrupted();
        try {
            LOG.log(System.Logger.Level.DEBUG, "cancelling task {0}: {1}", shownId, why);
            Deadline bound = Deadline.after(CANCEL_BOUND); // the cancel and the store's removal together
            cancel(RequestOptions.timeout(CANCEL_BOUND));
            owner.forget(this, bound);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "tasks/cancel of task {0} failed: {1}", shownId, e.toString());
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------- helpers

    private boolean clientClosed() {
        return owner.channel().closeToken().isCancelled();
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

    @Override
    public String toString() {
        return "McpTask[" + shownId + ", " + era + ", " + snapshot().status().wireName() + "]";
    }

}
