package dev.loommcp.internal.scope;

import dev.loommcp.internal.concurrent.Joins;
import dev.loommcp.internal.concurrent.McpThreads;
import dev.loommcp.Deadline;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The threads of one {@link Scope}: a thread-per-task executor of named, tracked virtual threads and one of platform
 * daemon threads (small stack, for native blocking), each made on the first fork of its kind, so that the JDK's JSON
 * thread dump lists a scope's threads under its own containers. Thread-safe.
 */
final class ForkThreads {

    /** The stack of a platform fork: the pipe threads' size (a hint to the JVM). */
    static final long PLATFORM_STACK_BYTES = 256 * 1024;

    /** The fork being started on this thread: its purpose for the factory, and the thread the factory made. */
    private static final class Launch {
        final String purpose;
        Thread thread;

        Launch(String purpose) {
            this.purpose = purpose;
        }
    }

    /**
     * The fork each thread is starting now, by the starting thread (a map, not a {@code ThreadLocal}: the first
     * thread-local of a fresh thread creates its whole thread-local map; see {@link ScopeThreads}).
     */
    private static final ConcurrentHashMap<Thread, Launch> LAUNCH = new ConcurrentHashMap<>();

    private volatile ExecutorService virtualThreads;
    private volatile ExecutorService platformThreads;
    /**
     * The threads started, until seen ended: an executor counts a task done while its thread still runs its last
     * frames, so the close joins these to return only once every thread has ended (pruned as it grows).
     */
    private final Set<Thread> started = ConcurrentHashMap.newKeySet();

    /**
     * The executor of the kind asked for, made on first use under {@code lock}; {@code null} once the scope is not
     * open any more.
     */
    ExecutorService executor(boolean platform, BooleanSupplier open, Supplier<ReentrantLock> lock) {
        ExecutorService e = platform ? platformThreads : virtualThreads;
        if (e != null) {
            return open.getAsBoolean() ? e : null;
        }
        ReentrantLock l = lock.get();
        l.lock();
        try {
            if (!open.getAsBoolean()) {
                return null;
            }
            if (platform) {
                if (platformThreads == null) {
                    platformThreads = Executors.newThreadPerTaskExecutor(r -> made(r, true));
                }
                return platformThreads;
            }
            if (virtualThreads == null) {
                virtualThreads = Executors.newThreadPerTaskExecutor(r -> made(r, false));
            }
            return virtualThreads;
        } finally {
            l.unlock();
        }
    }

    /**
     * Starts {@code task} on a new thread of {@code executor} named {@code mcp-<purpose>-<n>} and returns it.
     *
     * @throws RejectedExecutionException if the executor was shut down meanwhile: nothing runs, and a thread its
     *                                    factory made already (it never starts) is not tracked as live
     */
    Thread start(ExecutorService executor, String purpose, Runnable task) {
        Launch launch = new Launch(purpose);
        Thread me = Thread.currentThread();
        LAUNCH.put(me, launch);
        try {
            executor.execute(task); // the executor asks its factory for the thread on this thread: see made()
            Thread t = launch.thread;
            if (t != null) {
                started.add(t);
                if (started.size() > 64) {
                    started.removeIf(x -> x.getState() == Thread.State.TERMINATED);
                }
            }
            return t;
        } catch (RejectedExecutionException e) {
            McpThreads.forgetUnstarted(launch.thread);
            throw e;
        } finally {
            LAUNCH.remove(me);
        }
    }

    private static Thread made(Runnable r, boolean platform) {
        Launch l = LAUNCH.get(Thread.currentThread());
        String purpose = l == null ? "fork" : l.purpose;
        Thread t = platform ? McpThreads.newPlatform(purpose, PLATFORM_STACK_BYTES, r) : McpThreads.newThread(purpose, r);
        if (l != null) {
            l.thread = t;
        }
        return t;
    }

    /** Refuses new threads and interrupts the running ones. */
    void shutdownNow() {
        for (ExecutorService e : executors()) {
            e.shutdownNow();
        }
    }

    /**
     * Every fork has run its last statement: waits for the threads themselves to end (they are about to), until
     * {@code until}; an interrupt is noted in {@code interrupted[0]} and the wait goes on.
     *
     * @return whether they ended in time
     */
    boolean awaitTermination(Deadline until, boolean[] interrupted) {
        if (!awaitExecutors(until, interrupted)) {
            return false;
        }
        List<Thread> threads = List.copyOf(started);
        interrupted[0] |= Joins.joinAll(threads, until.isNone() ? Long.MAX_VALUE : until.nanoTime());
        started.removeIf(x -> x.getState() == Thread.State.TERMINATED);
        for (Thread t : threads) {
            if (t != Thread.currentThread() && t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    private boolean awaitExecutors(Deadline until, boolean[] interrupted) {
        for (ExecutorService e : executors()) {
            while (!e.isTerminated()) {
                try {
                    long left = until.remainingNanos();
                    if (left <= 0) {
                        return false;
                    }
                    e.awaitTermination(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                } catch (InterruptedException ie) {
                    interrupted[0] = true;
                }
            }
        }
        return true;
    }

    /** The identity of each executor (the thread dump's container names); empty when none was made. */
    List<String> containerNames() {
        List<String> names = new ArrayList<>(2);
        for (ExecutorService e : executors()) {
            names.add(Objects.toIdentityString(e));
        }
        return names;
    }

    private List<ExecutorService> executors() {
        ExecutorService v = virtualThreads;
        ExecutorService p = platformThreads;
        return v == null ? (p == null ? List.of() : List.of(p)) : (p == null ? List.of(v) : List.of(v, p));
    }
}
