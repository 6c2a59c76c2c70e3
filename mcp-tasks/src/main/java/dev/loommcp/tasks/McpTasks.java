package dev.loommcp.tasks;

import dev.loommcp.Registration;
import dev.loommcp.config.Era;
import dev.loommcp.McpException;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.RequestOptions;
import dev.loommcp.Deadline;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.ListEntries;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskSupport;
import dev.loommcp.spi.ToolCallAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import dev.loommcp.McpClient;
import org.jspecify.annotations.Nullable;

/**
 * Tasks for one client: long-running server work that a {@code tools/call} answers with a task handle (the tasks
 * extension {@code io.modelcontextprotocol/tasks} of MCP 2026-07-28, MODERN-ERA.md C.5; the experimental tasks of
 * MCP 2025-11-25, C.6; Rust seed {@code with_tasks}, {@code call_tool_as_task}). Install it when building the client:
 *
 * <pre>{@code
 * McpTasks tasks = McpTasks.newBuilder().store(new FileTaskStore(Path.of("tasks.json"))).build();
 * McpClient client = McpClient.newBuilder(transport).taskSupport(tasks.support()).build();
 * client.connect();
 * CallToolResult r = client.callTool("slow_compute", Map.of("seconds", 5));    // a task, driven to its result
 * McpTask task = tasks.callToolAsTask("slow_compute", Map.of("seconds", 60), RequestOptions.DEFAULT);
 * task.addListener((t, s) -> System.out.println(s.status()));
 * CallToolResult r2 = task.await(RequestOptions.ofTimeout(Duration.ofMinutes(5)));
 * }</pre>
 *
 * <p>Polls run on virtual threads only while a poll request is out: a thousand waiting tasks cost no thread between
 * polls. Polls keep the server's latest interval, never faster (bounded by {@link Builder#minPollInterval} and
 * {@link Builder#maxPollInterval}), and back off when the server signals a rate limit. Thread-safe.
 *
 * <p><b>Replicas sharing a store.</b> Every task this instance drives is held under a lease in the store
 * ({@link Builder#owner}, {@link Builder#leaseLength}, default 30 s), extended by one scheduler thread per bound
 * client; its state and its end are written fenced by that lease ({@link TaskStore#update},
 * {@link TaskStore#complete}).
 * The tasks of a replica that died are claimed once its leases pass ({@link #claimDue()}, also every
 * {@link Builder#claimInterval}) and driven to their end here. Each end is recorded once across the replicas and told
 * to the {@link Builder#resultListener} of the replica whose write won ({@link TaskResultListener}: at most once, the
 * stored result readable by anyone for {@link Builder#resultRetention}). A clean close of the client releases the
 * leases; a replica that dies releases nothing. docs/fleet.md has the whole picture.
 */
public final class McpTasks {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.tasks");

    private final TaskStore store;
    // package-private from here to statusRegistration: TasksDriver binds the client and releases its share
    final @Nullable Duration legacyTtl;
    private final Duration minPollInterval;
    private final Duration maxPollInterval;
    private final boolean push;
    private final TasksDriver driver = new TasksDriver(this);
    /** This instance among the live owners of this JVM ({@link TaskOwner}). */
    final String instanceId = UUID.randomUUID().toString();
    /**
     * This instance in the store's records ({@link TaskRecord#owner()}): the builder's replica id, else the instance
     * id, the pid and the start time.
     */
    private final String ownerId;
    private final @Nullable TaskResultListener resultListener;
    private final TaskWrites writes;
    /** The leases on the tasks this instance drives, and the scheduler that heartbeats them and claims due tasks. */
    final TaskLeaseKeeper leases;
    /** The driving listener of each task this instance claimed ({@link #claimDue()}), by task id. */
    final ConcurrentHashMap<String, Registration> driven = new ConcurrentHashMap<>();
    /** The most tasks one {@link #claimDue()} takes. */
    static final int MAX_CLAIM = 1000;
    /** Tasks are claimed in batches of this many (one store operation each). */
    private static final int CLAIM_BATCH = 100;
    /** The listener that keeps a claimed task polled until it ends. */
    private static final TaskListener DRIVING = (task, snapshot) -> { };
    /** The longest task id {@link #task(String)} takes, in chars. */
    static final int MAX_TASK_ID_LENGTH = 1024;
    /**
     * At most this many task listens are open at once per client (each is a stream: an HTTP response held open);
     * tasks beyond it are polled only.
     */
    static final int MAX_PUSH_LISTENS = 64;
    /** The default {@link Builder#leaseLength}. */
    static final Duration DEFAULT_LEASE_LENGTH = Duration.ofSeconds(30);

    final ConcurrentHashMap<String, TaskHandle> open = new ConcurrentHashMap<>();
    private final AtomicInteger pushListens = new AtomicInteger();
    final ReentrantLock bindLock = new ReentrantLock();
    volatile @Nullable TaskChannel channel;
    volatile @Nullable PollTimer timer;
    @Nullable Registration statusRegistration; // guarded by bindLock

    private McpTasks(Builder builder) {
        this.store = builder.store == null ? new InMemoryTaskStore() : builder.store;
        this.legacyTtl = builder.legacyTtl;
        this.minPollInterval = builder.minPollInterval;
        this.maxPollInterval = builder.maxPollInterval;
        this.push = builder.push;
        this.ownerId = builder.owner != null ? builder.owner : TaskOwner.of(instanceId);
        this.resultListener = builder.resultListener;
        Duration claimEvery = builder.claimInterval == null ? builder.leaseLength
                : builder.claimInterval.isZero() ? null : builder.claimInterval;
        this.leases = new TaskLeaseKeeper(this.store, ownerId, builder.leaseLength, claimEvery, this::claimDueQuietly,
                this::stopDriving);
        this.writes = new TaskWrites(this.store, leases, builder.resultRetention, resultListener,
                builder.storeFailureListener);
    }

    /**
     * Returns a builder with the defaults.
     *
     * @return a new builder
     */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Returns tasks with the defaults (an {@link InMemoryTaskStore}).
     *
     * @return new tasks, not yet installed on a client
     */
    public static McpTasks create() {
        return newBuilder().build();
    }

    /**
     * Returns the driver to install with {@code McpClient.Builder.taskSupport}. The same object every time; it
     * binds to one live client at a time: building a second client with it while the first is open throws
     * {@link IllegalStateException}; once that client has closed (by {@code close()} or because its connection
     * failed, as when a hosted server restarts) a new client may be built with it, and its tasks and store go on
     * from there. Tasks of several servers at once need one {@code McpTasks} per server.
     *
     * @return the driver
     */
    public TaskSupport support() {
        return driver;
    }

    /**
     * Calls a tool as a task and returns its handle at once (the task may still run). Modern era: the server decides
     * whether a call becomes a task; a call it answers at once gives a handle that is already {@code completed}.
     * Legacy era: the call is augmented with {@code task: {ttl}} when the server's {@code tasks.requests.tools.call}
     * capability and the tool's {@code execution.taskSupport} ({@code optional} or {@code required}) allow it; else it
     * is a plain call and the handle is already complete. The task is recorded in the store.
     *
     * @param name      the tool's name
     * @param arguments its arguments, or {@code null}
     * @param options   deadline and token of the creating call (not of the task)
     * @return the handle
     * @throws InterruptedException  if the calling thread is interrupted
     * @throws IllegalStateException if {@link #support()} is not installed on a connected client
     * @throws McpException          if the call fails
     */
    public McpTask callToolAsTask(String name, @Nullable Map<String, @Nullable Object> arguments,
                                  RequestOptions options)
            throws InterruptedException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
        TaskChannel ch = connected();
        TaskAugmentation task = LegacyAugmentation.of(ch, name, false, legacyTtl, options);
        Era era = ch.server().era();
        return switch (ch.callTool(name, arguments, task, options)) {
            case ToolCallAnswer.Pending p -> created(name, p.creation(), era, TaskHandle.deadlineOf(options));
            case ToolCallAnswer.Final f -> {
                // answered at once: a handle that is already complete (not recorded: there is nothing to resume)
                Instant now = Instant.now();
                yield new TaskHandle(this, TaskSnapshot.newBuilder("immediate-" + UUID.randomUUID(), era,
                        TaskStatus.COMPLETED).createdAt(now).lastUpdatedAt(now)
                        .result(Json.toPlainObject(f.result())).build(), name, true);
            }
        };
    }

    /**
     * Returns a handle to a task known by id (for example one printed by another process); nothing is sent. Its
     * status is {@link TaskStatus#UNKNOWN} until the server is asked ({@link McpTask#get}, or the first poll of an
     * {@code await} or listener), unless the store recorded one. Once someone awaits or listens, its first poll goes
     * out at once (then at the server's interval); when the server refuses that first poll (it does not know the
     * task, or cannot take the id), the wait fails at once with that error, as {@code get} would.
     *
     * @param taskId the id, 1 to {@value #MAX_TASK_ID_LENGTH} characters
     * @return the handle
     * @throws IllegalArgumentException if the id is empty or longer than {@value #MAX_TASK_ID_LENGTH} characters
     * @throws IllegalStateException    if {@link #support()} is not installed on a connected client
     */
    public McpTask task(String taskId) {
        Objects.requireNonNull(taskId, "taskId");
        if (taskId.isEmpty() || taskId.length() > MAX_TASK_ID_LENGTH) {
            throw new IllegalArgumentException("a task id is 1 to " + MAX_TASK_ID_LENGTH + " characters, not "
                    + taskId.length() + (taskId.isEmpty() ? "" : ": " + TaskWire.shown(taskId)));
        }
        TaskChannel ch = connected();
        TaskHandle known = open.get(taskId);
        if (known != null) {
            return known;
        }
        Era era = ch.server().era();
        TaskStatus status = TaskStatus.UNKNOWN;
        String tool = null;
        Instant createdAt = null;
        Duration ttl = null;
        for (TaskRecord r : store.list(ch.server().key())) {
            if (r.taskId().equals(taskId)) {
                era = r.era();
                status = r.lastStatus();
                tool = r.toolName();
                createdAt = r.createdAt();
                ttl = r.ttl();
            }
        }
        TaskHandle h = TaskHandle.ofId(this, TaskSnapshot.newBuilder(taskId, era, status).createdAt(createdAt).ttl(ttl)
                .build(), tool, null);
        return register(h);
    }

    /**
     * Lists the server's tasks ({@code tasks/list}, legacy era only, every page). A malformed task is left out
     * with one WARNING naming its index and what was wrong; the other tasks are listed.
     *
     * @param options deadline and token of the whole listing
     * @return the tasks as the server describes them
     * @throws InterruptedException         if the calling thread is interrupted
     * @throws McpUnsupportedInEraException in the modern era (the extension has no {@code tasks/list})
     * @throws McpException                 if a request fails, or a page has no {@code tasks} array
     *                                      ({@link McpProtocolException})
     */
    public List<TaskSnapshot> list(RequestOptions options) throws InterruptedException {
        Objects.requireNonNull(options, "options");
        TaskChannel ch = connected();
        if (ch.server().era() != Era.LEGACY) {
            throw new McpUnsupportedInEraException("tasks/list", ch.server().era(),
                    "the tasks extension has no tasks/list: keep the ids of the tasks you start");
        }
        RequestOptions whole = wholeListing(options);
        List<TaskSnapshot> all = new ArrayList<>();
        java.util.Set<String> cursors = new java.util.HashSet<>();
        String cursor = null;
        do {
            Map<String, Object> raw = TaskRequests.send(ch, "tasks/list", cursor == null ? Map.of()
                    : TaskWire.params("cursor", cursor), whole);
            if (raw == null || !(raw.get("tasks") instanceof List)) {
                throw new McpProtocolException("tasks/list result has no tasks array");
            }
            // a malformed task is left out with a WARNING naming its index; the others are listed
            all.addAll(ListEntries.decode(raw, "tasks/list", "tasks",
                    (t, what) -> TaskWire.parse(TaskWire.cast((Map<?, ?>) t), Era.LEGACY, null, what)).items());
            Object next = raw.get("nextCursor");
            cursor = next instanceof String s && !s.isEmpty() ? s : null;
            if (cursor != null && !cursors.add(cursor)) {
                throw new McpProtocolException("tasks/list repeated the cursor " + cursor + ": stopping the listing");
            }
        } while (cursor != null);
        return all;
    }

    /**
     * Re-attaches to the open tasks the store recorded for this client's server (for example after a restart of the
     * JVM): each is polled once ({@code tasks/get}); those the server no longer knows, or that ended, are removed
     * from the store (an ended task's handle is still returned, with its final snapshot).
     *
     * <p>Only tasks nobody else drives are taken: a record whose owner ({@link TaskRecord#owner()}) is another
     * live process, or another {@code McpTasks} of this JVM whose client is open, or whose lease
     * ({@link TaskRecord#leaseUntil()}) runs, is left to it (logged at INFO as owned elsewhere) and not returned; a
     * record whose owner has ended (or closed its client) or whose lease has ended, or that has no owner (written by
     * an older version), is taken over: its owner becomes this instance, in the same change of
     * the store, so two clients resuming at once never both take it, and it is held under this instance's lease from
     * then on. An ended record (its end was delivered: {@link TaskRecord#retainUntil()} is set) is not resumed.
     *
     * @return the handles, in creation order
     * @throws InterruptedException  if the calling thread is interrupted
     * @throws IllegalStateException if {@link #support()} is not installed on a connected client
     */
    public List<McpTask> resumeTasks() throws InterruptedException {
        TaskChannel ch = connected();
        List<McpTask> handles = new ArrayList<>();
        Era era = ch.server().era();
        Map<String, Boolean> ownersAlive = new java.util.HashMap<>();
        List<TaskRecord> taken = store.claim(ch.server().key(), r -> {
            if (r.era() != era) {
                LOG.log(System.Logger.Level.INFO, "task {0} was created in the {1} era; the client speaks {2} now:"
                        + " not resumed", TaskWire.shown(r.taskId()), r.era(), era);
                return null;
            }
            if (r.retainUntil() != null) {
                return null; // ended and delivered: its record is kept for reading only
            }
            if (!TaskLeases.free(r, ownerId, Instant.now(), ownersAlive)) {
                LOG.log(System.Logger.Level.INFO, "task {0} is owned elsewhere (driven by {1}, which is alive):"
                        + " not resumed", TaskWire.shown(r.taskId()), r.owner());
                return null;
            }
            return r.withOwner(ownerId, Instant.now().plus(leases.length()));
        }, Deadline.NONE);
        for (TaskRecord r : taken) {
            store.claim(r.serverKey(), r.taskId(), ownerId, leases.length()).ifPresent(leases::adopt);
            TaskHandle h = open.get(r.taskId());
            if (h == null) {
                h = register(TaskHandle.ofId(this, TaskSnapshot.newBuilder(r.taskId(), r.era(), r.lastStatus())
                        .createdAt(r.createdAt()).ttl(r.ttl()).build(), r.toolName(), r.learnedAt()));
            }
            try {
                h.get(RequestOptions.DEFAULT);
            } catch (McpTaskNotFoundException e) {
                forget(h, Deadline.NONE);
                LOG.log(System.Logger.Level.DEBUG, "task {0} is no longer known to the server: forgotten",
                        TaskWire.shown(r.taskId()));
                continue;
            }
            handles.add(h);
        }
        return handles;
    }

    /**
     * Claims the tasks of this client's server that are due ({@link TaskStore#claimDue}: recorded, not ended, and
     * with no owner or an owner whose lease has passed, as when the replica driving them died) and drives each to
     * its end: it is polled ({@code tasks/get}) in the era it was created in, its record is kept up to date under
     * this instance's lease (heartbeated with the others), and its end is recorded with the
     * {@link Builder#resultRetention result retention} and told to the {@link Builder#resultListener} if this
     * instance's fenced write wins ({@link TaskResultListener}: at most once across the replicas). Also runs on
     * the scheduler every {@link Builder#claimInterval}. A task created in another era than the client speaks now is
     * released again and left (logged at INFO). Up to {@value #MAX_CLAIM} tasks per call.
     *
     * @return the handles of the tasks claimed, in creation order (possibly empty)
     * @throws IllegalStateException if {@link #support()} is not installed on a connected client
     * @throws java.io.UncheckedIOException if the store cannot read or write (nothing is claimed by this call then,
     *                                      or the tasks claimed are driven and the rest stay due)
     */
    public List<McpTask> claimDue() {
        TaskChannel ch = connected();
        String server = ch.server().key();
        Era era = ch.server().era();
        List<McpTask> out = new ArrayList<>();
        while (out.size() < MAX_CLAIM) {
            List<TaskLease> got = store.claimDue(server, ownerId, leases.length(),
                    Math.min(CLAIM_BATCH, MAX_CLAIM - out.size()));
            if (got.isEmpty()) {
                break;
            }
            Map<String, TaskRecord> records = new java.util.HashMap<>();
            for (TaskRecord r : store.list(server)) {
                records.put(r.taskId(), r);
            }
            int before = out.size();
            for (TaskLease lease : got) {
                TaskRecord r = records.get(lease.taskId());
                if (r == null || r.era() != era) {
                    if (r != null) {
                        LOG.log(System.Logger.Level.INFO, "task {0} was created in the {1} era; the client speaks"
                                + " {2} now: not driven", TaskWire.shown(r.taskId()), r.era(), era);
                    }
                    store.release(lease);
                    continue;
                }
                out.add(drive(r, lease));
            }
            if (got.size() < CLAIM_BATCH || out.size() == before) {
                break; // none of a batch could be driven (unreadable records): they would come back at once
            }
        }
        return out;
    }

    /** Drives a claimed task: holds its lease and keeps it polled until it ends. */
    private McpTask drive(TaskRecord r, TaskLease lease) {
        leases.adopt(lease);
        TaskHandle h = open.get(r.taskId());
        if (h == null) {
            h = register(TaskHandle.ofId(this, TaskSnapshot.newBuilder(r.taskId(), r.era(), r.lastStatus())
                    .createdAt(r.createdAt()).ttl(r.ttl()).build(), r.toolName(), r.learnedAt()));
        }
        TaskHandle handle = h;
        driven.computeIfAbsent(r.taskId(), id -> handle.addListener(DRIVING));
        return h;
    }

    /** The scheduler's claim: failures are logged, never thrown (the next round tries again). */
    private void claimDueQuietly() {
        try {
            TaskChannel ch = channel;
            if (ch != null && !ch.closeToken().isCancelled()) {
                claimDue();
            }
        } catch (IllegalStateException e) {
            LOG.log(System.Logger.Level.DEBUG, "no due tasks claimed now: {0}", e.getMessage()); // not connected
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not claim the due tasks: {0}", e.toString());
        }
    }

    /** The task ended, or another owner was granted it: stop keeping it polled (a local waiter goes on). */
    private void stopDriving(String taskId) {
        Registration r = driven.remove(taskId);
        if (r != null) {
            r.close();
        }
    }

    /**
     * Returns this instance's owner id in the store's leases ({@link Builder#owner}).
     *
     * @return the owner id
     */
    public String owner() {
        return ownerId;
    }

    /**
     * Returns the store.
     *
     * @return the store
     */
    public TaskStore store() {
        return store;
    }

    // ------------------------------------------------------------------------------------------------ internals

    TaskChannel channel() {
        TaskChannel ch = channel;
        if (ch == null) {
            throw new IllegalStateException("McpTasks.support() is not installed on a client"
                    + " (McpClient.Builder.taskSupport(tasks.support()))");
        }
        return ch;
    }

    TaskChannel connected() {
        TaskChannel ch = channel();
        ch.server(); // throws IllegalStateException when not connected
        return ch;
    }

    /** The leases this instance holds (for tests). */
    TaskLeaseKeeper leases() {
        return leases;
    }

    PollTimer timer() {
        return timer;
    }

    boolean push() {
        return push;
    }

    /** Takes one of the {@link #MAX_PUSH_LISTENS} slots; {@code false} when none is free. */
    boolean takePushSlot() {
        while (true) {
            int n = pushListens.get();
            if (n >= MAX_PUSH_LISTENS) {
                return false;
            }
            if (pushListens.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void releasePushSlot() {
        pushListens.decrementAndGet();
    }

    Duration minPollInterval() {
        return minPollInterval;
    }

    Duration maxPollInterval() {
        return maxPollInterval;
    }

    private static RequestOptions wholeListing(RequestOptions options) {
        if (options.timeout().isEmpty() || options.deadline().isPresent()) {
            return options;
        }
        // one deadline for every page
        return options.toBuilder().timeout(null).deadline(Instant.now().plus(options.timeout().get())).build();
    }

    /**
     * Parses a task's creation, registers its handle and records it in the store, waiting for the store no longer
     * than {@code deadline} (the creating call's).
     */
    TaskHandle created(String toolName, Map<String, Object> raw, Era era, Deadline deadline) {
        TaskSnapshot first = TaskWire.parse(raw, era, null, "tools/call " + toolName + " task creation");
        // a creation carries no result or error: one created already ended is taken as working until a poll
        // brings its outcome (a terminal snapshot is final)
        TaskStatus status = first.status().isTerminal() && first.status() != TaskStatus.CANCELLED
                && first.result() == null && first.error() == null ? TaskStatus.WORKING : first.status();
        if (first.createdAt() == null || status != first.status()) {
            first = first.toBuilder().status(status)
                    .createdAt(first.createdAt() == null ? Instant.now() : first.createdAt()).build();
        }
        TaskHandle h = register(new TaskHandle(this, first, toolName));
        h.recordCreated(deadline);
        if (resultListener != null && !h.snapshot().status().isTerminal()) {
            driven.computeIfAbsent(h.id(), id -> h.addListener(DRIVING)); // its end is to be delivered
        }
        return h;
    }

    private TaskHandle register(TaskHandle h) {
        if (h.era() == Era.LEGACY) {
            driver.listenToStatusNotifications();
        }
        if (h.snapshot().status().isTerminal()) {
            return h;
        }
        TaskHandle earlier = open.putIfAbsent(h.id(), h);
        return earlier != null ? earlier : h;
    }

    /**
     * The handle's delivering thread ({@link TaskHandle}): the store is to hold the task as {@code s} now, or, when
     * {@code s} is terminal or {@code null}, no longer (its open-handle entry goes too); the writes are
     * {@link TaskWrites}'.
     */
    void store(TaskHandle h, @Nullable TaskSnapshot s, Deadline deadline) {
        TaskChannel ch = channel;
        if (s == null || s.status().isTerminal()) {
            open.remove(h.id(), h);
            stopDriving(h.id());
        }
        if (ch != null) {
            writes.write(h, s, ch.server().key(), deadline);
        }
    }

    /**
     * The task ended, expired or was given up: drop its open-handle entry now and its record after whatever the
     * store is still to hear of it (nothing recorded later brings it back).
     */
    void forget(TaskHandle h, Deadline deadline) {
        open.remove(h.id(), h);
        h.unrecord(deadline);
    }

    /** Builds {@link McpTasks}. Not thread-safe. */
    public static final class Builder {

        private TaskStore store;
        private @Nullable Duration legacyTtl;
        private Duration minPollInterval = Duration.ofMillis(100);
        private Duration maxPollInterval = Duration.ofSeconds(30);
        private boolean push = true;
        private java.util.function.@Nullable BiConsumer<McpTask, RuntimeException> storeFailureListener;
        private @Nullable String owner;
        private Duration leaseLength = DEFAULT_LEASE_LENGTH;
        private @Nullable Duration claimInterval;
        private Duration resultRetention = Duration.ZERO;
        private @Nullable TaskResultListener resultListener;

        private Builder() {
        }

        /**
         * Sets this replica's id in the store's task leases ({@link TaskRecord#owner()}, {@link TaskLease#owner()}):
         * unique per replica of a fleet sharing one store (a host name and process id, a pod name). A replica that
         * starts again with the same id takes its own records back at once. Default: a random id with this process's
         * id and start time (so that on one machine a record whose process is gone is taken over at once, without
         * waiting for its lease to pass).
         *
         * @param owner the id, 1 to 200 characters
         * @return this builder
         * @throws IllegalArgumentException if empty or longer than 200 characters
         */
        public Builder owner(String owner) {
            Objects.requireNonNull(owner, "owner");
            if (owner.isEmpty() || owner.length() > 200) {
                throw new IllegalArgumentException("an owner id is 1 to 200 characters, not " + owner.length());
            }
            this.owner = owner;
            return this;
        }

        /**
         * Sets how long a lease on a driven task runs: {@code McpTasks} holds one on every task it drives and
         * extends it every third of this (one scheduler thread per bound client, whatever the number of tasks); the
         * tasks of a replica that died without closing are claimed by another once this has passed since its last
         * heartbeat. Longer: fewer store writes and a slower take-over; shorter: the reverse, and a replica paused
         * longer than it (a long GC, a frozen VM) loses its tasks to another (its late writes are refused by the
         * fence). Default 30 seconds.
         *
         * @param length the length, at least 100 ms
         * @return this builder
         * @throws IllegalArgumentException if shorter than 100 ms
         */
        public Builder leaseLength(Duration length) {
            positive(length, "leaseLength");
            if (length.toMillis() < 100) {
                throw new IllegalArgumentException("leaseLength must be at least 100 ms: " + length);
            }
            this.leaseLength = length;
            return this;
        }

        /**
         * Sets how often the scheduler claims due tasks ({@link McpTasks#claimDue()}) while a client is bound: the
         * tasks of replicas that died, once their leases passed. Default: the {@link #leaseLength}; zero: never (on
         * demand only).
         *
         * @param interval the interval, zero or positive
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder claimInterval(Duration interval) {
            Objects.requireNonNull(interval, "claimInterval");
            if (interval.isNegative()) {
                throw new IllegalArgumentException("claimInterval must not be negative: " + interval);
            }
            this.claimInterval = interval;
            return this;
        }

        /**
         * Sets how long an ended task's record, with its result, is kept in the store after its end was delivered,
         * for anyone to read ({@link TaskStore#list}; {@link TaskRecord#retainUntil()}): what a fleet reads back
         * when the replica that delivered a result died before its listener ran ({@link TaskResultListener}).
         * Default zero: the record is removed once the end is recorded (as a single client wants).
         *
         * @param retention the time, zero or positive
         * @return this builder
         * @throws IllegalArgumentException if negative
         */
        public Builder resultRetention(Duration retention) {
            Objects.requireNonNull(retention, "resultRetention");
            if (retention.isNegative()) {
                throw new IllegalArgumentException("resultRetention must not be negative: " + retention);
            }
            this.resultRetention = retention;
            return this;
        }

        /**
         * Sets who hears the end of every task this instance drives, at most once across the replicas sharing the
         * store ({@link TaskResultListener} says when and on which thread). With a listener, every task this
         * instance starts is polled to its end even when nobody awaits it or listens to it. Default: none.
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder resultListener(@Nullable TaskResultListener listener) {
            this.resultListener = listener;
            return this;
        }

        /**
         * Sets who hears that the store failed to record or remove a task (a full disk, a store busy past the call's
         * deadline: {@link TaskStoreBusyException}): the task goes on and its handle works, but a
         * {@link McpTasks#resumeTasks()} after a restart may miss it or see a stale status. Called with the task's
         * handle and the store's exception, after the WARNING is logged, on the thread that told the store (the
         * creating {@code callToolAsTask}'s, a {@code get}'s or a poll's), with no lock held; it should return
         * quickly; what it throws is logged and ignored. Default: none (the WARNING only).
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder storeFailureListener(
                java.util.function.@Nullable BiConsumer<McpTask, RuntimeException> listener) {
            this.storeFailureListener = listener;
            return this;
        }

        /**
         * Sets where open tasks are remembered. Default: a new {@link InMemoryTaskStore}. A {@link FileTaskStore}
         * checks its file when it is made (a missing directory or a corrupt file fails there); several
         * {@code McpTasks} (one per server) and several processes may share one file. A store that fails to write
         * while tasks run (a full disk) does not fail the task: the failure is logged as a WARNING (and told to the
         * {@link #storeFailureListener}) and the task's handle and result are unaffected; only
         * {@link McpTasks#resumeTasks()} after a restart may then miss the task or see a stale status.
         *
         * @param store the store
         * @return this builder
         * @throws NullPointerException if {@code store} is {@code null}
         */
        public Builder store(TaskStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Sets the {@code ttl} asked for in the legacy era's {@code task} augmentation. Default: none (the server
         * chooses).
         *
         * @param ttl the ttl, positive, or {@code null} for none
         * @return this builder
         * @throws IllegalArgumentException if zero or negative
         */
        public Builder legacyTtl(@Nullable Duration ttl) {
            if (ttl != null && (ttl.isZero() || ttl.isNegative())) {
                throw new IllegalArgumentException("legacyTtl must be positive: " + ttl);
            }
            this.legacyTtl = ttl;
            return this;
        }

        /**
         * Sets the shortest interval between two polls of one task, whatever the server says. Default 100 ms.
         *
         * @param interval the floor, positive
         * @return this builder
         * @throws IllegalArgumentException if zero or negative, or above the maximum
         */
        public Builder minPollInterval(Duration interval) {
            positive(interval, "minPollInterval");
            if (interval.compareTo(maxPollInterval) > 0) {
                throw new IllegalArgumentException("minPollInterval " + interval + " is above maxPollInterval "
                        + maxPollInterval);
            }
            this.minPollInterval = interval;
            return this;
        }

        /**
         * Sets the longest interval between two polls of one task (also the interval when the server names none
         * is the smaller of this and 1 second). Default 30 seconds.
         *
         * @param interval the ceiling, positive
         * @return this builder
         * @throws IllegalArgumentException if zero or negative, or below the minimum
         */
        public Builder maxPollInterval(Duration interval) {
            positive(interval, "maxPollInterval");
            if (interval.compareTo(minPollInterval) < 0) {
                throw new IllegalArgumentException("maxPollInterval " + interval + " is below minPollInterval "
                        + minPollInterval);
            }
            this.maxPollInterval = interval;
            return this;
        }

        private static void positive(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException(what + " must be positive: " + d);
            }
        }

        /**
         * Sets whether status is also heard by push ({@code subscriptions/listen} with {@code taskIds}, modern era)
         * when the server offers it; polling continues at the server's interval as the fallback. A listen is
         * opened per awaited task, at most 64 at once per client (tasks beyond that are polled only). Default
         * {@code true}.
         *
         * @param push whether to listen
         * @return this builder
         */
        public Builder push(boolean push) {
            this.push = push;
            return this;
        }

        /**
         * Builds the tasks.
         *
         * @return the tasks, to install with {@code McpClient.Builder.taskSupport(tasks.support())}
         */
        public McpTasks build() {
            return new McpTasks(this);
        }
    }
}
