package dev.loommcp.internal.scope;

import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.Deadline;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import dev.loommcp.Registration;

/**
 * A scope of concurrent work with the contract of the JDK's {@code StructuredTaskScope} (a preview API in Java 21
 * to 25, so not used here) and the shape of its current API, on stable Java 21 APIs: {@linkplain #open opened} with a
 * {@link Joiner}, {@link #fork} returns a {@link Subtask}, {@link #join} waits within the scope's {@link Deadline},
 * {@link #cancel} interrupts every fork, and {@link #close} returns only when every fork has ended.
 *
 * <p><b>The tree.</b> A scope is opened as a child of the scope the opening thread is in ({@link ScopeThreads#current()}: the
 * scope whose owner it is, or that forked it), else as a child of the parent given to {@link #open}. Cancelling a
 * scope cancels its children; a child's deadline is never later than its parent's. loom-mcp builds one tree: the
 * client's scope owns the session's long-lived threads; a request's scope owns every thread started for that
 * request; a call made from inside a request's scope (a handler, a listener of that request) opens its scope under
 * it, so it inherits the deadline and ends with it.
 *
 * <p><b>Threads.</b> Forks run on virtual threads, or on platform daemon threads where work blocks in native code
 * ({@link #forkPlatform}), each from a {@link Executors#newThreadPerTaskExecutor thread-per-task executor} made on
 * the first fork, so the JDK's JSON thread dump ({@code jcmd <pid> Thread.dump_to_file -format=json}) lists a scope's
 * threads together, under a container named by {@link #containerNames()}. Threads are named
 * {@code mcp-<purpose>-<n>} and tracked by {@link McpThreads#live()}. A scope that never forks makes no executor.
 *
 * <p><b>Confinement.</b> A {@linkplain #open confined} scope (a request's, a user's fan-out) accepts forks only from
 * its owner (the thread that opened it) and from its own forks, and only its owner may join and close it; opening one
 * makes it the owner's {@link ScopeThreads#current()} scope until it closes, and scopes must close in the reverse order of
 * opening ({@link IllegalStateException} otherwise, after the scope was closed). An unconfined scope (the client's,
 * which owns threads started from any thread that uses the client) accepts forks from any thread and is not the
 * current scope of the thread that opened it.
 *
 * <p>Thread-safe. Cancel actions ({@link #onCancel}) and joiner methods must not block.
 *
 * @param <T> the result type of the forks
 * @param <R> the result type of {@link #join}
 */
public final class Scope<T, R> implements AutoCloseable {

    private enum State { OPEN, CANCELLED, CLOSED }

    /** Why a scope was cancelled: {@link #join} reports a result only after the joiner's own cancel. */
    private enum Cause { JOINER, DEADLINE, INTERRUPT, OUTSIDE }

    private final String name;
    private final Joiner<? super T, ? extends R> joiner;
    private final Scope<?, ?> parent;
    private final Deadline deadline;
    private final Thread owner;
    private final Scope<?, ?> previous;
    private final Object attachment;

    /*
     * A request opens a scope per call: what most scopes never use (a lock for waiters, cancel actions, children) is
     * made on first use, so a scope that runs no fork costs a few small objects.
     */
    private volatile ScopeExtras extras;
    /** Forks that have not run their last statement (a {@link #RUNNING} counter: one object less per scope). */
    private volatile int running;
    private volatile State state = State.OPEN;
    private volatile Cause cause;
    private volatile boolean joined;
    /**
     * Whether the scope is in its parent's children. A request's scope opened under the client's (its fallback
     * parent: the calling thread was in no scope) joins them only when it first needs to (a fork, a cancel action, a
     * scope under it): most requests never do, and the parent's children set is the one place every concurrent call
     * of a client would otherwise write. Until then the parent's cancel reaches it through {@link #isCancelled()}.
     */
    private volatile boolean attached;

    private static final VarHandle EXTRAS;
    private static final VarHandle STATE;
    private static final VarHandle RUNNING;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            EXTRAS = l.findVarHandle(Scope.class, "extras", ScopeExtras.class);
            STATE = l.findVarHandle(Scope.class, "state", State.class);
            RUNNING = l.findVarHandle(Scope.class, "running", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The scope's lock, cancel actions and children, made on first use (a request's scope seldom needs them). */
    private ScopeExtras extras() {
        ScopeExtras x = extras;
        if (x == null) {
            ScopeExtras made = new ScopeExtras();
            x = EXTRAS.compareAndSet(this, null, made) ? made : extras;
        }
        return x;
    }

    /** Wakes the threads waiting for a change (none when no one ever waited: see {@link #extras()}). */
    private void signal() {
        ScopeExtras x = extras;
        if (x != null) {
            x.signalAll();
        }
    }

    private void removeChild(Scope<?, ?> child) {
        ScopeExtras x = extras;
        if (x != null) {
            x.children.remove(child);
        }
    }

    private Scope(String name, Joiner<? super T, ? extends R> joiner, Scope<?, ?> parent, Deadline deadline,
                  Thread owner, Scope<?, ?> previous, Object attachment) {
        this.name = name;
        this.joiner = joiner;
        this.parent = parent;
        this.deadline = parent == null ? deadline : deadline.earliest(parent.deadline);
        this.owner = owner;
        this.previous = previous;
        this.attachment = attachment;
    }

    /**
     * Opens a confined scope owned by the calling thread, as a child of {@link ScopeThreads#current()} (else of
     * {@code fallbackParent}), and makes it the calling thread's current scope until {@link #close()}.
     *
     * @param name           what the scope is for (thread dumps, messages)
     * @param joiner         decides {@link #join}'s outcome and when it stops waiting
     * @param deadline       when the scope's work must be done; {@link Deadline#NONE} for none; the parent's deadline
     *                       applies when earlier
     * @param fallbackParent the parent when the calling thread is in no scope, or {@code null}
     * @param attachment     what the scope stands for (a request's context), read with {@link #attachment()}; or
     *                       {@code null}
     * @param <T>            the result type of the forks
     * @param <R>            the result type of {@link #join}
     * @return the open scope
     * @throws IllegalStateException if the parent is already cancelled or closed (nothing is opened)
     * @throws NullPointerException  if {@code name}, {@code joiner} or {@code deadline} is {@code null}
     */
    public static <T, R> Scope<T, R> open(String name, Joiner<? super T, ? extends R> joiner, Deadline deadline,
                                          Scope<?, ?> fallbackParent, Object attachment) {
        Scope<?, ?> current = ScopeThreads.current();
        Scope<T, R> s = new Scope<>(Objects.requireNonNull(name, "name"), Objects.requireNonNull(joiner, "joiner"),
                current != null ? current : fallbackParent, Objects.requireNonNull(deadline, "deadline"),
                Thread.currentThread(), current, attachment);
        if (current != null || fallbackParent == null) {
            s.attach();
        } else if (fallbackParent.isCancelled()) { // joins the fallback parent's children lazily: ensureAttached
            throw new IllegalStateException(fallbackParent.name + " has ended: " + name + " was not opened");
        }
        ScopeThreads.setCurrent(s);
        return s;
    }

    /**
     * Opens a confined scope owned by the calling thread, as a child of {@link ScopeThreads#current()}; see
     * {@link #open(String, Joiner, Deadline, Scope, Object)}.
     *
     * @param name     what the scope is for
     * @param joiner   decides {@link #join}'s outcome
     * @param deadline when the scope's work must be done, or {@link Deadline#NONE}
     * @param <T>      the result type of the forks
     * @param <R>      the result type of {@link #join}
     * @return the open scope
     * @throws IllegalStateException if the parent is already cancelled or closed (nothing is opened)
     */
    public static <T, R> Scope<T, R> open(String name, Joiner<? super T, ? extends R> joiner, Deadline deadline) {
        return open(name, joiner, deadline, null, null);
    }

    /**
     * Opens an unconfined scope (forks from any thread; no owner; not made current; closed by any thread): a
     * container of long-lived threads such as the client's. It has no parent and no deadline, and cannot be joined.
     *
     * @param name what the scope is for
     * @return the open scope
     */
    public static Scope<Object, Void> openUnconfined(String name) {
        return openUnconfined(name, null);
    }

    /**
     * Opens an unconfined scope as a child of {@code parent} (cancelled with it; its forks awaited by the parent's
     * close); see {@link #openUnconfined(String)}.
     *
     * @param name   what the scope is for
     * @param parent the parent, or {@code null} for a root
     * @return the open scope
     * @throws IllegalStateException if the parent has ended (nothing is opened)
     */
    public static Scope<Object, Void> openUnconfined(String name, Scope<?, ?> parent) {
        Scope<Object, Void> s = new Scope<>(Objects.requireNonNull(name, "name"), Joiner.awaitAll(), parent,
                Deadline.NONE, null, null, null);
        if (parent != null) {
            parent.ensureAttached();
            parent.extras().children.add(s);
            s.attached = true;
            if (parent.state != State.OPEN) {
                parent.removeChild(s);
                throw new IllegalStateException(parent.name + " has ended: " + name + " was not opened");
            }
        }
        return s;
    }

    private void attach() {
        if (parent != null) {
            parent.ensureAttached();
            parent.extras().children.add(this); // before the check: a concurrent cancel of the parent then sees this child
            attached = true;
            if (parent.state != State.OPEN) {
                parent.removeChild(this);
                throw new IllegalStateException(parent.name + " has ended: " + name + " was not opened");
            }
        }
    }

    /**
     * Joins the parent's children if this scope was opened without (see {@link #attached}), before its first fork,
     * cancel action or child scope. The add comes before the check of the parent's state, as in {@link #attach}:
     * either a concurrent cancel of the parent sees this scope among its children, or this scope sees the parent
     * ended and cancels itself (then nothing starts in it).
     */
    private void ensureAttached() {
        Scope<?, ?> p = parent;
        if (p == null || attached) {
            return;
        }
        p.ensureAttached();
        p.extras().children.add(this);
        attached = true;
        if (p.state != State.OPEN) {
            p.removeChild(this);
            cancel(Cause.OUTSIDE);
        } else if (state == State.CLOSED) {
            // a start() from another thread raced this scope's close, which saw it unattached (it reads attached
            // after marking itself closed; this reads the state after marking itself attached): leave no closed
            // scope among the parent's children
            p.removeChild(this);
        }
    }

    /** How many child scopes are attached now (tests). */
    int attachedChildren() {
        ScopeExtras x = extras;
        return x == null ? 0 : x.children.size();
    }

    /** Whether the calling thread is this scope's owner, one of its forks, or in a scope under it. */
    private boolean containsCallingThread() {
        if (Thread.currentThread() == owner) {
            return true;
        }
        for (Scope<?, ?> s = ScopeThreads.current(); s != null; s = s.parent) {
            if (s == this) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ forks

    /**
     * Starts {@code task} on a new virtual thread named {@code mcp-<purpose>-<n>} in this scope. After the scope
     * was cancelled nothing is started and the subtask stays {@link Subtask.State#UNAVAILABLE}. The joiner is told
     * of the fork ({@link Joiner#onFork}) on the calling thread, and of its end ({@link Joiner#onComplete}) on the
     * fork's thread unless the scope was cancelled by then.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @param <U>     the task's result type
     * @return the subtask
     * @throws IllegalStateException if the scope is closed or was joined, or a confined scope is forked from a
     *                               thread that is neither its owner nor one of its forks (nor in a scope opened
     *                               under them)
     */
    public <U extends T> Subtask<U> fork(String purpose, Callable<? extends U> task) {
        return fork(purpose, task, false);
    }

    /**
     * Starts {@code task} on a new platform daemon thread (small stack) in this scope, for work that blocks in native
     * code for long (a pipe read or write); see {@link #fork}.
     *
     * @param purpose what the thread does, for its name
     * @param task    the work
     * @param <U>     the task's result type
     * @return the subtask
     * @throws IllegalStateException as {@link #fork}
     */
    public <U extends T> Subtask<U> forkPlatform(String purpose, Callable<? extends U> task) {
        return fork(purpose, task, true);
    }

    /**
     * Starts {@code task} in this scope like {@link #fork} but from any thread (a transport's thread working for a
     * request), and returns the thread. The task is no subtask: the joiner is not told of it, and an exception it
     * throws goes to the thread's uncaught-exception handler. {@link #close()} waits for it like for a fork.
     *
     * @param purpose  what the thread does
     * @param task     the work
     * @param platform whether it needs a platform thread
     * @return the started thread, or {@code null} when the scope was cancelled (nothing started)
     * @throws IllegalStateException if the scope is closed
     */
    public Thread start(String purpose, Runnable task, boolean platform) {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(task, "task");
        if (state == State.CLOSED) {
            throw closed(purpose);
        }
        return launch(purpose, new Forked<T>(this, () -> {
            task.run();
            return null;
        }, false), platform);
    }

    private <U extends T> Subtask<U> fork(String purpose, Callable<? extends U> task, boolean platform) {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(task, "task");
        if (owner != null && !containsCallingThread()) {
            throw new IllegalStateException(ScopeThreads.threadName() + " may not fork in " + name
                    + ": only its owner and its forks may");
        }
        if (state == State.CLOSED) {
            throw closed(purpose);
        }
        if (joined && Thread.currentThread() == owner) { // its forks may fork while the join waits for them
            throw new IllegalStateException(name + " was already joined: " + purpose + " not started");
        }
        if (deadline.isExpired()) {
            cancel(Cause.DEADLINE); // a scope past its deadline starts nothing more (the JDK's timer would have)
        }
        Forked<U> f = new Forked<>(this, task, true);
        if (joiner.onFork(f)) {
            cancel(Cause.JOINER);
        }
        launch(purpose, f, platform);
        return f;
    }

    private IllegalStateException closed(String purpose) {
        return new IllegalStateException(name + " is closed: nothing more starts in it (" + purpose + ")");
    }

    private Thread launch(String purpose, Forked<?> f, boolean platform) {
        ensureAttached();
        ForkThreads threads = extras().threads;
        ExecutorService executor = threads.executor(platform, this::isOpen, () -> extras().lock);
        if (executor == null) {
            return null; // cancelled: nothing starts, the subtask stays unavailable
        }
        RUNNING.getAndAdd(this, 1);
        try {
            return threads.start(executor, purpose, f);
        } catch (RejectedExecutionException e) { // cancelled meanwhile: nothing runs
            finished();
            return null;
        } catch (RuntimeException | Error e) { // no thread could be made: nothing runs
            finished();
            throw e;
        }
    }

    void finished() {
        if ((int) RUNNING.getAndAdd(this, -1) - 1 <= 1) { // 1: a fork closing its own scope waits for the others only
            signal();
        }
    }

    // ------------------------------------------------------------------------------------------------ join

    /**
     * Waits until every fork has ended, or the joiner stops the wait (cancelling the rest), or the deadline passes,
     * and returns the joiner's result. Only the owner may join, once; the owner may not fork after (tasks may be
     * {@link #start started}, and scopes opened under it). When the wait ended early the scope is cancelled: forks
     * still running are interrupted, and {@link #close()} waits for them.
     *
     * @return the joiner's result
     * @throws InterruptedException  if the owner is interrupted before or while waiting (the scope is cancelled)
     * @throws ScopeTimeoutException      if the deadline passed first (the scope is cancelled)
     * @throws ScopeCancelledException    if the scope was cancelled by something other than its joiner while waiting:
     *                               {@link #cancel}, its parent, or a close out of order
     * @throws ScopeFailedException       if the joiner's outcome is a failure (its cause is the failed fork's)
     * @throws IllegalStateException if called by a thread other than the owner, twice, or after close
     */
    public R join() throws InterruptedException {
        if (owner == null || Thread.currentThread() != owner) {
            throw new IllegalStateException("only the owner of " + name + " may join it");
        }
        if (joined || state == State.CLOSED) {
            throw new IllegalStateException(name + " was already joined or closed");
        }
        joined = true;
        Cause stop;
        try {
            stop = awaitJoin();
        } catch (InterruptedException e) {
            cancel(Cause.INTERRUPT);
            throw e;
        }
        if (stop == Cause.DEADLINE) {
            throw new ScopeTimeoutException(name + " did not finish within its deadline");
        }
        if (stop == Cause.OUTSIDE) {
            throw new ScopeCancelledException(name + " was cancelled");
        }
        try {
            return joiner.result();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new ScopeFailedException(e);
        }
    }

    /** Waits for the join's end; returns the cause of a cancel that ended it, {@code null} when every fork ended. */
    private Cause awaitJoin() throws InterruptedException {
        // extras() before reading running and state: a fork or cancel after this signals it
        extras().await(() -> running > 0 && state == State.OPEN, deadline);
        if (state == State.OPEN) {
            if (running > 0) {
                cancel(Cause.DEADLINE);
            } else {
                return null;
            }
        }
        Cause c = cause;
        if (c == Cause.OUTSIDE && !deadline.isNone() && deadline.remainingNanos() == 0) {
            return Cause.DEADLINE; // the parent's deadline (inherited) ended it
        }
        return c;
    }

    // ------------------------------------------------------------------------------------------------ cancel

    /**
     * Registers an action to run once when the scope is cancelled (by {@link #cancel}, a joiner, its parent's cancel,
     * {@link #join}'s deadline or interrupt, or {@link #close()}); it runs at once, on the calling thread, when that
     * happened already. The action must not block; an exception it throws is logged and ignored.
     *
     * @param action the action
     * @return a registration whose {@code close()} removes the action (a no-op once it ran)
     */
    public Registration onCancel(Runnable action) {
        Objects.requireNonNull(action, "action");
        ensureAttached();
        ConcurrentLinkedQueue<Runnable> actions = extras().actions;
        actions.add(action);
        if (state != State.OPEN && actions.remove(action)) {
            ScopeExtras.runQuietly(action, name);
        }
        return () -> actions.remove(action);
    }

    /**
     * Says what ended a cancelled scope, for messages: the outermost cancelled scope above it (a cancel runs down the
     * tree), for example {@code "the enclosing tools/call ended"}, or its own name.
     *
     * @return the description
     */
    public String endedBy() {
        Scope<?, ?> top = this;
        while (top.parent != null && top.parent.isCancelled()) {
            top = top.parent;
        }
        return top == this ? name + " ended" : "the enclosing " + top.name + " ended";
    }

    /**
     * Cancels the scope: no new fork starts, the cancel actions run, every child scope is cancelled, then every fork
     * is interrupted. Idempotent; callable from any thread; does not wait. A {@link #join} waiting then throws
     * {@link ScopeCancelledException}.
     */
    public void cancel() {
        cancel(Cause.OUTSIDE);
    }

    private void cancel(Cause why) {
        if (state != State.OPEN) {
            return;
        }
        cause = why; // before the state: whoever sees CANCELLED sees a cause (a racing cancel may overwrite it first)
        if (!STATE.compareAndSet(this, State.OPEN, State.CANCELLED)) {
            return;
        }
        signal();
        // under no lock: the actions and the children's actions are code of other layers
        if (attachment instanceof CancelAware aware) {
            try {
                aware.scopeCancelled(this);
            } catch (RuntimeException e) {
                ScopeExtras.runQuietly(() -> {
                    throw e;
                }, name);
            }
        }
        ScopeExtras x = extras;
        if (x != null) { // no iterator of an empty list: a request's scope seldom has extras
            x.runActions(name);
            for (Scope<?, ?> child : x.children) {
                child.cancel(Cause.OUTSIDE);
            }
            x.threads.shutdownNow();
        }
    }

    /**
     * Returns whether the scope was cancelled or closed.
     *
     * @return {@code true} once cancelled
     */
    public boolean isCancelled() {
        return state != State.OPEN || !attached && parent != null && parent.isCancelled();
    }

    // ------------------------------------------------------------------------------------------------ close

    /**
     * Closes the scope: cancels it when it is still open, then waits, without bound and ignoring interrupts (re-set
     * on return), until every fork of it and of every scope under it has ended (a fork that closes its own
     * unconfined scope does not wait for itself); then detaches it from its parent and, for a confined scope, makes
     * the scope that was current before it current again. Idempotent: closing a closed scope waits for forks still
     * running after a {@link #closeWithin} that gave up.
     *
     * <p>Closing a confined scope while scopes its owner opened after it are still open (out of order) closes those
     * first, innermost first, then this one, then throws; their own later {@code close()} does nothing.
     *
     * @throws IllegalStateException if a confined scope is closed by another thread than its owner (nothing is
     *                               done), or when it was not the owner's current scope (scopes closed out of
     *                               order; they were closed all the same)
     */
    @Override
    public void close() {
        closeWithin(Deadline.NONE);
    }

    /**
     * Closes the scope like {@link #close()} but waits for the forks only until {@code deadline}. The scope is closed
     * either way; forks still running were interrupted and end on their own.
     *
     * @param deadline when to stop waiting for forks; {@link Deadline#NONE} waits without bound
     * @return whether every fork had ended
     * @throws IllegalStateException as {@link #close()}
     */
    public boolean closeWithin(Deadline deadline) {
        Objects.requireNonNull(deadline, "deadline");
        if (owner != null && Thread.currentThread() != owner) {
            throw new IllegalStateException("only the owner of " + name + " may close it");
        }
        if (state == State.CLOSED) {
            return awaitTree(deadline);
        }
        List<Scope<?, ?>> openedInside = owner == null ? List.of() : ScopeThreads.openedAfter(this);
        for (int i = 0; openedInside != null && i < openedInside.size(); i++) { // no iterator in the usual case
            openedInside.get(i).end(deadline);
        }
        boolean ended = end(deadline);
        if (owner != null) {
            if (openedInside != null) {
                ScopeThreads.setCurrent(previous);
            }
            if (openedInside == null || !openedInside.isEmpty()) {
                throw new IllegalStateException(name + " was closed while "
                        + (openedInside == null ? "it was not the current scope of its owner"
                        : "a scope opened after it was still open: " + openedInside.get(0).name));
            }
        }
        return ended;
    }

    /** Cancels, waits for the forks under this scope until {@code until}, then marks it closed and detaches it. */
    private boolean end(Deadline until) {
        cancel(Cause.OUTSIDE);
        boolean ended = awaitTree(until);
        state = State.CLOSED;
        if (parent != null && attached) {
            parent.removeChild(this);
        }
        return ended;
    }

    /** Waits, ignoring interrupts (re-set after), for the forks of this scope and of the scopes under it. */
    private boolean awaitTree(Deadline until) {
        boolean[] interrupted = {false};
        try {
            return awaitTree(until, interrupted);
        } finally {
            if (interrupted[0]) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private boolean awaitTree(Deadline until, boolean[] interrupted) {
        // a fork closing its own (unconfined) scope cannot wait for itself
        int self = ScopeThreads.forkOf() == this ? 1 : 0;
        if (!awaitForks(until, self, interrupted)) {
            return false;
        }
        ScopeExtras x = extras;
        if (x != null) {
            for (Scope<?, ?> child : x.children) { // cancelled: no child is added any more
                if (!child.awaitTree(until, interrupted)) {
                    return false;
                }
            }
        }
        return self == 1 || x == null || x.threads.awaitTermination(until, interrupted);
    }

    private boolean awaitForks(Deadline until, int self, boolean[] interrupted) {
        // extras() before reading running again: a fork ending after this signals it
        return running <= self || extras().awaitUninterruptibly(() -> running > self, until, interrupted);
    }

    // ------------------------------------------------------------------------------------------------ facts

    /**
     * Returns the scope's deadline (never later than its parent's).
     *
     * @return the deadline, or {@link Deadline#NONE}
     */
    public Deadline deadline() {
        return deadline;
    }

    /**
     * Returns what the scope stands for, as given to {@link #open}; or {@code null}.
     *
     * @return the attachment
     */
    public Object attachment() {
        return attachment;
    }

    /**
     * Returns the parent scope, or {@code null} for a root.
     *
     * @return the parent
     */
    public Scope<?, ?> parent() {
        return parent;
    }

    /** The thread that owns this confined scope (opened it); {@code null} for an unconfined one. */
    Thread owner() {
        return owner;
    }

    /** The calling thread's current scope when this confined one was opened (restored by its close), or {@code null}. */
    Scope<?, ?> previous() {
        return previous;
    }

    /**
     * Returns the scope's name.
     *
     * @return the name given to {@link #open}
     */
    public String name() {
        return name;
    }

    /**
     * Returns how many forks (and {@link #start started} tasks) have not ended.
     *
     * @return the count
     */
    public int runningForks() {
        return running;
    }

    /**
     * Returns the names under which the JDK's JSON thread dump lists this scope's threads: the identity of each
     * thread container (executor) the scope made; empty when it never forked.
     *
     * @return the container names
     */
    public List<String> containerNames() {
        ScopeExtras x = extras;
        return x == null ? List.of() : x.threads.containerNames();
    }

    @Override
    public String toString() {
        return name + " (" + state.name().toLowerCase(java.util.Locale.ROOT) + ", " + running + " running)";
    }

    /** Whether the scope is neither cancelled nor closed. */
    boolean isOpen() {
        return state == State.OPEN;
    }

    /** The joiner decided the outcome: cancel the rest. */
    void cancelForJoiner() {
        cancel(Cause.JOINER);
    }

    @SuppressWarnings("unchecked")
    boolean onComplete(Subtask<?> s) {
        return ((Joiner<Object, ?>) joiner).onComplete((Subtask<Object>) s);
    }
}
