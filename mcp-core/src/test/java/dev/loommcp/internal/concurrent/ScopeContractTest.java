package dev.loommcp.internal.concurrent;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The structured-concurrency contract of DESIGN.md section 3, written once against a small adapter so that the same
 * tests run against {@link RequestScope} ({@link RequestScopeContractTest}) and, on JDK 25 and later, against the
 * JDK's own preview {@code java.util.concurrent.StructuredTaskScope} ({@code JdkStructuredTaskScopeContractTest} in
 * {@code src/test-jdk25/java}, compiled with {@code --enable-preview} for that source set alone). "Same contract"
 * is thus checked, not claimed.
 *
 * <p>Where the two genuinely differ the contract states only what both do, and the difference is written down here
 * rather than forced:
 * <ul>
 *   <li>Thread names: {@link RequestScope} names children {@code mcp-<scope>-<n>}; the JDK's default factory makes
 *       unnamed virtual threads. Both run children on virtual threads.</li>
 *   <li>Interrupted join: {@link RequestScope#join()} cancels the scope before it throws; the JDK's {@code join()}
 *       throws and leaves the cancelling to {@code close()}. The contract checks the common end: after close every
 *       child was interrupted and has ended.</li>
 *   <li>Outcome reporting: {@link RequestScope#join()} returns an {@link RequestScope.Outcome}; the JDK's
 *       {@code awaitAllSuccessfulOrThrow} joiner throws {@code FailedException} / {@code TimeoutException}. The
 *       adapters map both to {@link Result}.</li>
 *   <li>Cancel hooks and tokens ({@link RequestScope#onCancel}, {@code CancellationToken}) have no JDK counterpart
 *       (the JDK cancels through interrupts and the joiner only); they stay in {@link RequestScopeTest}.</li>
 *   <li>Close without join: the JDK's {@code close()} throws {@link IllegalStateException} (after cancelling and
 *       waiting) when the owner forked but never joined; {@link RequestScope#close()} does not throw
 *       ({@link #closeWithoutJoinThrows()}).</li>
 *   <li>What close waits for: the JDK until the child threads terminated; {@link RequestScope} until every child's
 *       task returned ({@link #closeAwaitsThreadTermination()}).</li>
 *   <li>Fork after cancel: {@link RequestScope} completes the subtask as failed with an
 *       {@link InterruptedException}; the JDK leaves it {@code UNAVAILABLE}. In both the task never runs, which is
 *       what the contract checks.</li>
 * </ul>
 *
 * <p>No test measures time: waits are on latches with a generous bound; the deadline test checks only the outcome.
 */
@Timeout(value = 60, unit = SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class ScopeContractTest {

    /** Bound of every wait, in seconds: generous, never expected to be reached. */
    static final long WAIT = 30;

    /** How a join ended, in terms both implementations can report. */
    enum Result {
        /** Every child succeeded. */
        COMPLETED,
        /** A child failed; the others were cancelled. */
        FAILED,
        /** The deadline passed; the children were cancelled. */
        DEADLINE
    }

    /** One forked child, as the contract sees it. */
    interface Child<T> {
        /** Returns whether it completed successfully. */
        boolean succeeded();

        /** Returns its result; only after success. */
        T get();
    }

    /** One scope, as the contract sees it; owned by the thread that opened it. */
    interface Scope extends AutoCloseable {
        <T> Child<T> fork(Callable<T> task);

        Result join() throws InterruptedException;

        boolean isCancelled();

        @Override
        void close();
    }

    /**
     * Opens a scope owned by the calling thread.
     *
     * @param name    the scope's name
     * @param timeout the deadline from now, or {@code null} for none
     * @return the scope
     */
    abstract Scope open(String name, Duration timeout);

    /**
     * Returns whether {@code close()} of a scope whose owner forked but never joined throws
     * {@link IllegalStateException} (after closing). {@link RequestScope}: no (close is the one cleanup path and must
     * not throw); the JDK: yes (it flags the missing join as a bug of the owner). Both cancel and wait first.
     *
     * @return whether it throws
     */
    abstract boolean closeWithoutJoinThrows();

    /**
     * Returns whether {@code close()} returns only once every child thread has terminated. The JDK: yes (its thread
     * flock waits for the threads). {@link RequestScope}: it returns once every child's task has returned and the
     * thread has left {@code McpThreads.live()}; the thread itself may still be running its last exit steps (so
     * {@link Thread#isAlive()} can be true for a moment, and a join right after ends at once).
     *
     * @return whether the threads are terminated when close returns
     */
    abstract boolean closeAwaitsThreadTermination();

    // ---------------------------------------------------------------------------------------------- ownership

    @Test
    void onlyTheOwnerForksJoinsAndCloses() throws Exception {
        try (Scope scope = open("owner", null)) {
            assertThat(onOtherThread(() -> scope.fork(() -> "x"))).isInstanceOf(WrongThreadException.class);
            assertThat(onOtherThread(scope::join)).isInstanceOf(WrongThreadException.class);
            assertThat(onOtherThread(() -> {
                scope.close();
                return null;
            })).isInstanceOf(WrongThreadException.class);
            Child<String> c = scope.fork(() -> "still usable");
            assertThat(scope.join()).isEqualTo(Result.COMPLETED);
            assertThat(c.get()).isEqualTo("still usable");
        }
    }

    @Test
    void childrenRunOnVirtualThreads() throws Exception {
        try (Scope scope = open("virtual", null)) {
            Child<Boolean> c = scope.fork(() -> Thread.currentThread().isVirtual());
            assertThat(scope.join()).isEqualTo(Result.COMPLETED);
            assertThat(c.get()).isTrue();
        }
    }

    // ---------------------------------------------------------------------------------------------- join

    @Test
    void joinReturnsCompletedWithEveryResultWhenAllSucceed() throws Exception {
        try (Scope scope = open("all", null)) {
            Child<Integer> a = scope.fork(() -> 1);
            Child<Integer> b = scope.fork(() -> 2);
            assertThat(scope.join()).isEqualTo(Result.COMPLETED);
            assertThat(a.succeeded() && b.succeeded()).isTrue();
            assertThat(a.get() + b.get()).isEqualTo(3);
        }
    }

    @Test
    void joinWithoutChildrenReturnsCompletedAtOnce() throws Exception {
        try (Scope scope = open("empty", null)) {
            assertThat(scope.join()).isEqualTo(Result.COMPLETED);
        }
    }

    @Test
    void firstFailureCancelsTheSiblingsAndJoinReportsIt() throws Exception {
        CountDownLatch siblingStarted = new CountDownLatch(1);
        AtomicBoolean siblingInterrupted = new AtomicBoolean();
        try (Scope scope = open("fail", null)) {
            scope.fork(untilInterrupted(siblingStarted, siblingInterrupted));
            scope.fork(() -> {
                assertThat(siblingStarted.await(WAIT, SECONDS)).isTrue();
                throw new IllegalStateException("boom");
            });
            assertThat(scope.join()).isEqualTo(Result.FAILED);
            assertThat(scope.isCancelled()).isTrue();
        }
        assertThat(siblingInterrupted).isTrue();
    }

    @Test
    void deadlineCancelsTheChildrenAndJoinReportsIt() throws Exception {
        AtomicBoolean interrupted = new AtomicBoolean();
        try (Scope scope = open("deadline", Duration.ofMillis(50))) {
            scope.fork(untilInterrupted(new CountDownLatch(1), interrupted));
            assertThat(scope.join()).isEqualTo(Result.DEADLINE);
        }
        assertThat(interrupted).isTrue();
    }

    @Test
    void ownerInterruptedInJoinGetsInterruptedExceptionAndCloseEndsTheChildren() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean childInterrupted = new AtomicBoolean();
        AtomicReference<Throwable> joinThrew = new AtomicReference<>();
        Thread owner = Thread.ofVirtual().start(() -> {
            try (Scope scope = open("interrupted", null)) {
                scope.fork(untilInterrupted(started, childInterrupted));
                assertThat(started.await(WAIT, SECONDS)).isTrue();
                Thread.currentThread().interrupt();
                scope.join();
            } catch (Throwable t) {
                joinThrew.set(t);
            }
        });
        assertThat(owner.join(Duration.ofSeconds(WAIT))).isTrue();
        assertThat(joinThrew.get()).isInstanceOf(InterruptedException.class);
        assertThat(childInterrupted).isTrue();
    }

    // ---------------------------------------------------------------------------------------------- cancel, close

    @Test
    void aTaskForkedAfterTheScopeWasCancelledNeverRuns() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        try (Scope scope = open("late", null)) {
            scope.fork(() -> {
                throw new IllegalStateException("cancels the scope");
            });
            long end = System.nanoTime() + SECONDS.toNanos(WAIT);
            while (!scope.isCancelled() && System.nanoTime() < end) {
                Thread.onSpinWait();
                Thread.yield();
            }
            assertThat(scope.isCancelled()).as("a failing child cancels the scope before join").isTrue();
            Child<String> late = scope.fork(() -> {
                ran.set(true);
                return "ran";
            });
            assertThat(scope.join()).isEqualTo(Result.FAILED);
            assertThat(late.succeeded()).isFalse();
        }
        assertThat(ran).isFalse();
    }

    @Test
    void closeWaitsForAChildThatIgnoresInterrupts() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Scope scope = open("stubborn", null);
        Thread releaser;
        try {
            scope.fork(() -> {
                started.countDown();
                while (true) {
                    try {
                        if (release.await(WAIT, SECONDS)) {
                            break;
                        }
                    } catch (InterruptedException ignored) {
                        // ignores interrupts, like a blocking native call
                    }
                }
                finished.set(true);
                return "done";
            });
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            // released once the owner blocks (inside close); close must not return before the child finished
            Thread owner = Thread.currentThread();
            releaser = Thread.ofVirtual().start(() -> {
                long end = System.nanoTime() + SECONDS.toNanos(WAIT);
                while (owner.getState() == Thread.State.RUNNABLE && System.nanoTime() < end) {
                    Thread.yield();
                }
                release.countDown();
            });
        } finally {
            closeWithoutJoin(scope);
        }
        assertThat(finished).as("close returned only after the child ended").isTrue();
        assertThat(releaser.join(Duration.ofSeconds(WAIT))).isTrue();
    }

    @Test
    void closeCancelsARunningChildEvenWithoutJoin() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Thread> child = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean returned = new AtomicBoolean();
        Scope scope = open("nojoin", null);
        try {
            scope.fork(() -> {
                child.set(Thread.currentThread());
                started.countDown();
                try {
                    Thread.sleep(Duration.ofSeconds(WAIT * 4));
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
                returned.set(true);
                return "cut short";
            });
            assertThat(started.await(WAIT, SECONDS)).isTrue();
        } finally {
            closeWithoutJoin(scope);
        }
        assertThat(interrupted).isTrue();
        assertThat(returned).as("close returned only after the child's task did").isTrue();
        if (closeAwaitsThreadTermination()) {
            assertThat(child.get().isAlive()).as("no child thread outlives the scope").isFalse();
        } else {
            assertThat(child.get().join(Duration.ofSeconds(WAIT))).as("the child thread ends right after").isTrue();
        }
    }

    /**
     * A child that counts {@code started} down, then blocks far past every bound of the test until it is interrupted,
     * which it notes in {@code interrupted} before ending with the {@link InterruptedException}.
     */
    private static Callable<String> untilInterrupted(CountDownLatch started, AtomicBoolean interrupted) {
        return () -> {
            started.countDown();
            try {
                Thread.sleep(Duration.ofSeconds(WAIT * 4));
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return "never";
        };
    }

    /** Closes a scope whose owner forked but never joined, checking the implementation's rule for that case. */
    private void closeWithoutJoin(Scope scope) {
        Throwable closing = null;
        try {
            scope.close();
        } catch (IllegalStateException e) {
            closing = e;
        }
        if (closeWithoutJoinThrows()) {
            assertThat(closing).as("JDK: close after fork without join throws, after closing").isNotNull();
        } else {
            assertThat(closing).isNull();
        }
    }

    private static Throwable onOtherThread(Callable<?> action) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                action.call();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        assertThat(t.join(Duration.ofSeconds(WAIT))).isTrue();
        return thrown.get();
    }
}
