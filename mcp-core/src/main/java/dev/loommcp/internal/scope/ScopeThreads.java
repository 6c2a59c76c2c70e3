package dev.loommcp.internal.scope;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which {@link Scope} a thread is in: the thread-local state of the scope tree, kept apart from the scopes themselves.
 * A thread's current scope is the last confined scope it opened and has not closed, else the scope that forked it; a
 * fork also remembers the scope that started it (not changed by scopes the fork opens), which tells whether a thread
 * belongs to a tree ({@link #inTree}). Also how a thread is named in messages. Thread-safe (each thread sees its own).
 *
 * <p>The current scopes are kept in a map by thread, not in a {@link ThreadLocal}: every MCP call asks the calling
 * thread for its scope (a nested call inherits it), and the first {@code ThreadLocal.get} on a thread creates the
 * thread's whole thread-local map (a table of 16 slots and an entry, about 150 bytes), which the application's fresh
 * virtual thread per call would pay on every call. Here a thread outside every scope costs a lookup, and one that
 * opens a scope an entry until it closes it. The scope that forked a thread is not stored: it is the first scope on
 * the thread's chain of current scopes ({@link Scope#previous()}) that the thread did not open itself. An entry of a
 * thread that ended without closing its scope (an application's {@code McpScope} never closed) is dropped by a sweep
 * of ended threads every {@value #SWEEP_EVERY} entries added.
 */
public final class ScopeThreads {

    /** How many entries are added between two sweeps of the entries of ended threads. */
    static final int SWEEP_EVERY = 4096;

    /** The current scope of each thread that is in one. */
    private static final ConcurrentHashMap<Thread, Scope<?, ?>> CURRENT = new ConcurrentHashMap<>();
    /** Entries added since the last sweep (racy on purpose: it only spaces the sweeps out). */
    private static int added;

    private ScopeThreads() {
    }

    /**
     * Returns the innermost scope the calling thread is in: the last confined scope it opened and has not closed,
     * else the scope that forked it; {@code null} when none.
     *
     * @return the scope, or {@code null}
     */
    public static Scope<?, ?> current() {
        return CURRENT.get(Thread.currentThread());
    }

    /**
     * Returns whether the calling thread was started by {@code root} or by a scope under it (a fork anywhere in its
     * tree).
     *
     * @param root the scope
     * @return {@code true} for a thread of the tree
     */
    public static boolean inTree(Scope<?, ?> root) {
        for (Scope<?, ?> s = forkOf(); s != null; s = s.parent()) {
            if (s == root) {
                return true;
            }
        }
        return false;
    }

    /**
     * Describes the calling thread for a message: its name, or what it is when it has none.
     *
     * @return the description
     */
    public static String threadName() {
        Thread t = Thread.currentThread();
        String n = t.getName();
        return n.isEmpty() ? "an unnamed " + (t.isVirtual() ? "virtual" : "platform") + " thread (id " + t.threadId()
                + ")" : n;
    }

    /**
     * The scope whose fork the calling thread is, or {@code null}: below the confined scopes the thread opened itself
     * (owned by it), the first scope on its chain of current scopes.
     */
    static Scope<?, ?> forkOf() {
        Thread me = Thread.currentThread();
        Scope<?, ?> s = CURRENT.get(me);
        while (s != null && s.owner() == me) {
            s = s.previous();
        }
        return s;
    }

    /** Makes {@code scope} the calling thread's current scope; {@code null} leaves it in none. */
    static void setCurrent(Scope<?, ?> scope) {
        Thread me = Thread.currentThread();
        if (scope == null) {
            CURRENT.remove(me);
        } else if (CURRENT.put(me, scope) == null && ++added >= SWEEP_EVERY) {
            added = 0;
            CURRENT.keySet().removeIf(t -> !t.isAlive());
        }
    }

    /** Makes {@code scope} the calling fork's current scope: the one that started it. */
    static void entered(Scope<?, ?> scope) {
        setCurrent(scope);
    }

    /** The calling fork has run its task: it is in no scope any more. */
    static void left() {
        CURRENT.remove(Thread.currentThread());
    }

    /** How many threads are in a scope now (tests). */
    static int threadsInScopes() {
        return CURRENT.size();
    }

    /**
     * The open scopes the owner of the confined {@code scope} opened after it (those its close must close first),
     * innermost first; {@code null} when {@code scope} is not on the calling thread's chain of current scopes (a scope
     * opened before it was closed out of order and took this one along). Called by the owner.
     */
    static List<Scope<?, ?>> openedAfter(Scope<?, ?> scope) {
        Scope<?, ?> current = current();
        if (current == scope) {
            return List.of(); // the usual case, without a list
        }
        List<Scope<?, ?>> inside = new ArrayList<>();
        for (Scope<?, ?> s = current; s != null; s = s.previous()) {
            if (s == scope) {
                return inside;
            }
            if (s.owner() != scope.owner()) {
                break; // past the scopes this thread opened: the scope that forked it
            }
            inside.add(s);
        }
        return null;
    }
}
