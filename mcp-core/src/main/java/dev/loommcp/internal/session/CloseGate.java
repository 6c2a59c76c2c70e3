package dev.loommcp.internal.session;

import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How the close of a {@link Session} is coordinated once it is marked closed: the one release runs the registered
 * close actions and then the release itself; a close that finds another close's release running waits for it, so
 * that every close returns with the client released. Thread-safe.
 */
final class CloseGate {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** The longest a close waits for a release that another thread runs. */
    static final long RELEASE_WAIT_SECONDS = 60;

    /** Opened when the release ended. */
    private final CountDownLatch released = new CountDownLatch(1);
    /** The thread running the release: user code it runs (listeners told of the close) may close again. */
    private volatile Thread releasing;
    /** What {@link #whenClosed} registered and the release has not run yet. */
    private final Set<Runnable> actions = ConcurrentHashMap.newKeySet();

    /**
     * Runs {@code action} once when the session closes (by close or by the transport's loss; at once when
     * {@code closed} says it is closed already): it ends a wait of connect on something the close does not reach by
     * itself (the era probe's own transport).
     *
     * @return what unregisters the action (a no-op once it ran)
     */
    Runnable whenClosed(Runnable action, BooleanSupplier closed) {
        actions.add(action);
        if (closed.getAsBoolean() && actions.remove(action)) {
            action.run();
        }
        return () -> actions.remove(action);
    }

    /** Runs the release on this thread: the close actions (each once), then {@code release}; opens the gate. */
    void release(Runnable release) {
        releasing = Thread.currentThread();
        try {
            for (Runnable action : actions) {
                if (actions.remove(action)) {
                    action.run();
                }
            }
            release.run();
        } finally {
            released.countDown();
        }
    }

    /** Whether {@code t} runs the release (a close from a listener it runs must not wait for it). */
    boolean isReleasing(Thread t) {
        return t == releasing;
    }

    /**
     * Waits until the release that another thread began is over (the transport closed, its process reaped, the
     * client's threads ended). The release is bounded (the transport's close, then 5 s of joins); this wait gives up
     * after {@value #RELEASE_WAIT_SECONDS} s all the same, with a WARNING, rather than hang a close on a release that
     * went wrong. An interrupt does not cut the wait short (as for the first closer); the thread's interrupt status
     * is re-asserted at the end.
     */
    void awaitReleased() {
        boolean interrupted = false;
        Deadline end = Deadline.after(Duration.ofSeconds(RELEASE_WAIT_SECONDS));
        try {
            while (true) {
                try {
                    if (!released.await(end.remainingNanos(), TimeUnit.NANOSECONDS)) {
                        LOG.log(System.Logger.Level.WARNING, "close: the release that another thread began did not "
                                + "finish within " + RELEASE_WAIT_SECONDS + " s; returning without it");
                    }
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
