package dev.loommcp.internal.scope;

/**
 * Which {@link Scope} a thread is in: the thread-local state of the scope tree, kept apart from the scopes themselves.
 * A thread's current scope is the last confined scope it opened and has not closed, else the scope that forked it; a
 * fork also remembers the scope that started it (not changed by scopes the fork opens), which tells whether a thread
 * belongs to a tree ({@link #inTree}). Also how a thread is named in messages. Thread-safe (each thread sees its own).
 */
public final class ScopeThreads {

    /** The calling thread's current scope; {@code null} (or no entry) outside every scope. */
    static final ThreadLocal<Scope<?, ?>> CURRENT = new ThreadLocal<>();
    /** The scope whose fork the calling thread is. */
    private static final ThreadLocal<Scope<?, ?>> FORK_OF = new ThreadLocal<>();

    private ScopeThreads() {
    }

    /**
     * Returns the innermost scope the calling thread is in: the last confined scope it opened and has not closed,
     * else the scope that forked it; {@code null} when none.
     *
     * @return the scope, or {@code null}
     */
    public static Scope<?, ?> current() {
        return CURRENT.get();
    }

    /**
     * Returns whether the calling thread was started by {@code root} or by a scope under it (a fork anywhere in its
     * tree).
     *
     * @param root the scope
     * @return {@code true} for a thread of the tree
     */
    public static boolean inTree(Scope<?, ?> root) {
        for (Scope<?, ?> s = FORK_OF.get(); s != null; s = s.parent()) {
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

    /** The scope whose fork the calling thread is, or {@code null}. */
    static Scope<?, ?> forkOf() {
        return FORK_OF.get();
    }

    /** Makes {@code scope} the calling fork's current scope and the one that started it. */
    static void entered(Scope<?, ?> scope) {
        CURRENT.set(scope);
        FORK_OF.set(scope);
    }

    /** The calling fork has run its task: it is in no scope any more. */
    static void left() {
        CURRENT.remove();
        FORK_OF.remove();
    }
}
