package dev.loommcp.internal.concurrent;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.CancellationToken;
import dev.loommcp.internal.concurrent.RequestScope.Outcome;
import dev.loommcp.internal.concurrent.RequestScope.State;
import dev.loommcp.internal.concurrent.RequestScope.Subtask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract of {@link RequestScope} (DESIGN.md section 3): the {@code StructuredTaskScope} contract on stable
 * Java 21 APIs. No test measures time: every wait is on a latch or a join with a generous bound, and the one test of
 * the deadline uses a short one and checks only the outcome.
 */
@ExtendWith(McpThreadLeakCheck.class)
// a separate thread, so that a regression in close() (which ignores interrupts) fails the test instead of hanging
@Timeout(value = 60, unit = SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RequestScopeTest {

    /** Bound of every wait, in seconds: generous, never expected to be reached. */
    private static final long WAIT = 30;
    private static final long NO_DEADLINE = Long.MAX_VALUE;

    @Test
    void runsOnTheModulePathInsideTheCoreModule() {
        // surefire patches the test classes into the module under test; this proves the contract is tested there
        assertThat(RequestScopeTest.class.getModule().getName()).isEqualTo("dev.loommcp.core");
        assertThat(RequestScope.class.getModule()).isSameAs(RequestScopeTest.class.getModule());
    }

    // ---------------------------------------------------------------------------------------------- ownership

    @Test
    void onlyTheOwnerForksJoinsAndCloses() throws Exception {
        try (RequestScope scope = RequestScope.open("owner", NO_DEADLINE, null)) {
            assertThat(onOtherThread(() -> scope.fork(() -> "x"))).isInstanceOf(WrongThreadException.class);
            assertThat(onOtherThread(scope::join)).isInstanceOf(WrongThreadException.class);
            assertThat(onOtherThread(scope::close)).isInstanceOf(WrongThreadException.class);

            // the refused calls changed nothing: the owner still uses the scope normally
            assertThat(scope.isCancelled()).isFalse();
            Subtask<String> sub = scope.fork(() -> "ok");
            assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
            assertThat(sub.get()).isEqualTo("ok");
        }
    }

    @Test
    void anyThreadMayCancelAndRegisterHooks() throws Exception {
        AtomicInteger hookRuns = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (RequestScope scope = RequestScope.open("foreign-cancel", NO_DEADLINE, null)) {
            scope.fork(blockUntilInterrupted(started, interrupted));
            await(started);
            assertThat(onOtherThread(() -> scope.onCancel(hookRuns::incrementAndGet))).isNull();
            assertThat(onOtherThread(() -> scope.cancel("from elsewhere"))).isNull();

            assertThat(scope.join()).isEqualTo(Outcome.CANCELLED);
            assertThat(scope.cancelReason()).isEqualTo("from elsewhere");
            await(interrupted);
            assertThat(hookRuns).hasValue(1);
        }
        assertThat(hookRuns).hasValue(1);
    }

    // ---------------------------------------------------------------------------------------------- fork

    @Test
    void forkRunsEachTaskOnItsOwnNamedVirtualThread() throws Exception {
        List<Subtask<Thread>> subs = new ArrayList<>();
        try (RequestScope scope = RequestScope.open("naming", NO_DEADLINE, null)) {
            for (int i = 0; i < 3; i++) {
                subs.add(scope.fork(Thread::currentThread));
            }
            assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
        }
        Set<String> names = new HashSet<>();
        for (Subtask<Thread> sub : subs) {
            Thread t = sub.get();
            assertThat(t.isVirtual()).as("virtual").isTrue();
            assertThat(t.getName()).matches("mcp-naming-\\d+");
            assertThat(t).isNotSameAs(Thread.currentThread());
            names.add(t.getName());
        }
        assertThat(names).hasSize(3);
    }

    @Test
    void forkAfterCloseIsRefusedAndSoIsJoin() {
        RequestScope scope = RequestScope.open("closed", NO_DEADLINE, null);
        scope.close();
        assertThatThrownBy(() -> scope.fork(() -> "late"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(scope::join).isInstanceOf(IllegalStateException.class);
        scope.close(); // idempotent
        assertThat(scope.cancelReason()).isEqualTo("closed");
    }

    @Test
    void childForkedAfterCancelIsInterruptedAtOnce() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        Subtask<String> sub;
        try (RequestScope scope = RequestScope.open("after-cancel", NO_DEADLINE, null)) {
            scope.cancel("early");
            // would block for ever if it were not interrupted
            sub = scope.fork(() -> {
                ran.set(true);
                new CountDownLatch(1).await();
                return "unreachable";
            });
            assertThat(scope.join()).isEqualTo(Outcome.CANCELLED);
        }
        assertThat(sub.state()).isEqualTo(State.FAILED);
        assertThat(sub.exception()).isInstanceOf(InterruptedException.class);
        assertThat(ran).as("the task of a cancelled scope does not run").isFalse();
    }

    @Test
    void childForkedAfterTheTokenFiredIsInterruptedAtOnce() throws Exception {
        CancellationToken token = CancellationToken.create();
        token.cancel("before open");
        Subtask<String> sub;
        try (RequestScope scope = RequestScope.open("token-fired", NO_DEADLINE, token)) {
            assertThat(scope.isCancelled()).isTrue();
            assertThat(scope.cancelReason()).isEqualTo("token");
            sub = scope.fork(() -> {
                new CountDownLatch(1).await();
                return "unreachable";
            });
            assertThat(scope.join()).isEqualTo(Outcome.CANCELLED);
        }
        assertThat(sub.exception()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThatThrownBy(() -> RequestScope.open(null, NO_DEADLINE, null)).isInstanceOf(NullPointerException.class);
        try (RequestScope scope = RequestScope.open("nulls", NO_DEADLINE, null)) {
            assertThatThrownBy(() -> scope.fork(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> scope.onCancel(null)).isInstanceOf(NullPointerException.class);
        }
    }

    // ---------------------------------------------------------------------------------------------- join

    @Test
    void joinReturnsCompletedWhenAllSucceed() throws Exception {
        List<Subtask<Integer>> subs;
        try (RequestScope scope = RequestScope.open("complete", NO_DEADLINE, null)) {
            subs = IntStream.range(0, 5).mapToObj(i -> scope.fork(() -> i * i)).toList();
            assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
            for (int i = 0; i < subs.size(); i++) {
                assertThat(subs.get(i).state()).isEqualTo(State.SUCCESS);
                assertThat(subs.get(i).get()).isEqualTo(i * i);
                int index = i;
                assertThatThrownBy(() -> subs.get(index).exception()).isInstanceOf(IllegalStateException.class);
            }
            assertThat(scope.firstFailure()).isNull();
            assertThat(scope.isCancelled()).isFalse();
            assertThat(scope.cancelReason()).isNull();
        }
    }

    @Test
    void joinWithoutChildrenReturnsCompleted() throws Exception {
        try (RequestScope scope = RequestScope.open("empty", NO_DEADLINE, null)) {
            assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
        }
    }

    @Test
    void subtaskResultIsUnavailableWhileRunning() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (RequestScope scope = RequestScope.open("running", NO_DEADLINE, null)) {
            Subtask<String> sub = scope.fork(() -> {
                assertThat(release.await(WAIT, SECONDS)).isTrue();
                return "done";
            });
            assertThat(sub.state()).isEqualTo(State.RUNNING);
            assertThatThrownBy(sub::get).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(sub::exception).isInstanceOf(IllegalStateException.class);
            release.countDown();
            assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
            assertThat(sub.get()).isEqualTo("done");
        }
    }

    @Test
    void firstFailureCancelsTheSiblingsAndJoinReturnsFailed() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        IllegalStateException boom = new IllegalStateException("boom");
        Subtask<String> sibling1;
        Subtask<String> sibling2;
        Subtask<Object> failing;
        try (RequestScope scope = RequestScope.open("failure", NO_DEADLINE, null)) {
            sibling1 = scope.fork(blockUntilInterrupted(started, interrupted));
            sibling2 = scope.fork(blockUntilInterrupted(started, interrupted));
            failing = scope.fork(() -> {
                await(started);
                throw boom;
            });
            assertThat(scope.join()).isEqualTo(Outcome.FAILED);
            assertThat(scope.firstFailure()).isSameAs(boom);
            assertThat(scope.isCancelled()).isTrue();
            await(interrupted);
            // the siblings' InterruptedExceptions came after the cancel: they are not the first failure
            assertThat(scope.firstFailure()).isSameAs(boom);
            assertThat(scope.join()).as("join again").isEqualTo(Outcome.FAILED);
        }
        assertThat(failing.state()).isEqualTo(State.FAILED);
        assertThat(failing.exception()).isSameAs(boom);
        assertThatThrownBy(failing::get).isInstanceOf(IllegalStateException.class);
        for (Subtask<String> sibling : List.of(sibling1, sibling2)) {
            assertThat(sibling.state()).isEqualTo(State.FAILED);
            assertThat(sibling.exception()).isInstanceOf(InterruptedException.class);
        }
    }

    @Test
    void aFailingChildCancelsItsSiblingsWithoutWaitingForJoin() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (RequestScope scope = RequestScope.open("failure-early", NO_DEADLINE, null)) {
            scope.fork(blockUntilInterrupted(started, interrupted));
            scope.fork(() -> {
                await(started);
                throw new java.io.IOException("stream broke");
            });
            // the owner has not joined yet: the failing child cancelled the scope itself
            await(interrupted);
            assertThat(scope.isCancelled()).isTrue();
            assertThat(scope.cancelReason()).startsWith("subtask mcp-failure-early-")
                    .endsWith("java.io.IOException").doesNotContain("stream broke");
            assertThat(scope.join()).isEqualTo(Outcome.FAILED);
            assertThat(scope.firstFailure()).isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void deadlineCancelsTheChildrenAndJoinReturnsDeadline() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Subtask<String> sub;
        long deadline = System.nanoTime() + MILLISECONDS.toNanos(50);
        try (RequestScope scope = RequestScope.open("deadline", deadline, null)) {
            assertThat(scope.deadlineNanos()).isEqualTo(deadline);
            sub = scope.fork(blockUntilInterrupted(started, interrupted));
            await(started); // else the deadline may cancel it before its task runs (then the task never runs)
            assertThat(scope.join()).isEqualTo(Outcome.DEADLINE);
            assertThat(scope.isCancelled()).isTrue();
            assertThat(scope.cancelReason()).isEqualTo("deadline");
            await(interrupted);
            assertThat(scope.join()).as("join again").isEqualTo(Outcome.DEADLINE);
        }
        assertThat(sub.exception()).isInstanceOf(InterruptedException.class);
        assertThat(sub.state()).isEqualTo(State.FAILED);
    }

    @Test
    void ownerInterruptedDuringJoinCancelsTheChildren() throws Exception {
        Thread owner = Thread.currentThread();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Subtask<String> sub;
        try (RequestScope scope = RequestScope.open("owner-interrupt", NO_DEADLINE, null)) {
            Callable<String> block = blockUntilInterrupted(started, interrupted);
            sub = scope.fork(() -> {
                owner.interrupt(); // while the owner joins (or about to: the interrupt waits for it)
                return block.call();
            });
            assertThatThrownBy(scope::join).isInstanceOf(InterruptedException.class);
            assertThat(scope.isCancelled()).isTrue();
            assertThat(scope.cancelReason()).isEqualTo("interrupted");
            await(interrupted);
        }
        assertThat(sub.exception()).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).as("close got no interrupt").isFalse();
    }

    @Test
    void ownerAlreadyInterruptedWhenJoiningCancelsTheChildren() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (RequestScope scope = RequestScope.open("owner-interrupted", NO_DEADLINE, null)) {
            scope.fork(blockUntilInterrupted(started, interrupted));
            await(started);
            Thread.currentThread().interrupt();
            assertThatThrownBy(scope::join).isInstanceOf(InterruptedException.class);
            assertThat(scope.cancelReason()).isEqualTo("interrupted");
            await(interrupted);
        }
    }

    @Test
    void tokenFiringCancelsTheScope() throws Exception {
        CancellationToken token = CancellationToken.create();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Subtask<String> sub;
        try (RequestScope scope = RequestScope.open("token", NO_DEADLINE, token)) {
            sub = scope.fork(blockUntilInterrupted(started, interrupted));
            Helper canceller = Helper.start(() -> {
                await(started);
                token.cancel("user gave up");
            });
            assertThat(scope.join()).isEqualTo(Outcome.CANCELLED);
            assertThat(scope.cancelReason()).isEqualTo("token");
            await(interrupted);
            canceller.join();
        }
        assertThat(sub.exception()).isInstanceOf(InterruptedException.class);
        assertThat(token.reason()).isEqualTo("user gave up");
    }

    @Test
    void oneTokenCancelsManyScopesAtOnce() throws Exception {
        int owners = 50;
        CancellationToken token = CancellationToken.create();
        CountDownLatch started = new CountDownLatch(owners);
        List<AtomicReference<Outcome>> outcomes = new ArrayList<>();
        List<Helper> helpers = new ArrayList<>();
        for (int i = 0; i < owners; i++) {
            AtomicReference<Outcome> outcome = new AtomicReference<>();
            outcomes.add(outcome);
            int n = i;
            helpers.add(Helper.start(() -> {
                try (RequestScope scope = RequestScope.open("many-" + n, NO_DEADLINE, token)) {
                    scope.fork(blockUntilInterrupted(started, new CountDownLatch(1)));
                    outcome.set(scope.join());
                }
            }));
        }
        await(started);
        token.cancel();
        for (Helper h : helpers) {
            h.join();
        }
        assertThat(outcomes).allSatisfy(o -> assertThat(o.get()).isEqualTo(Outcome.CANCELLED));
    }

    // ---------------------------------------------------------------------------------------------- cancel hooks

    @Test
    void cancelHooksRunExactlyOnceOnTheCancellingThread() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Helper canceller;
        try (RequestScope scope = RequestScope.open("hooks", NO_DEADLINE, null)) {
            scope.onCancel(() -> {
                runs.incrementAndGet();
                ranOn.set(Thread.currentThread());
            });
            canceller = Helper.start(() -> {
                scope.cancel("first");
                scope.cancel("second");
            });
            canceller.join();
            assertThat(runs).hasValue(1);
            assertThat(ranOn.get()).isSameAs(canceller.thread);
            assertThat(scope.cancelReason()).isEqualTo("first");
            scope.cancel("third");
        }
        assertThat(runs).as("close cancels no second time").hasValue(1);
    }

    @Test
    void hookRegisteredAfterCancelRunsAtOnceOnTheRegisteringThread() {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        try (RequestScope scope = RequestScope.open("late-hook", NO_DEADLINE, null)) {
            scope.cancel("done");
            scope.onCancel(() -> {
                runs.incrementAndGet();
                ranOn.set(Thread.currentThread());
            });
            assertThat(runs).hasValue(1);
            assertThat(ranOn.get()).isSameAs(Thread.currentThread());
            scope.cancel("again");
        }
        assertThat(runs).hasValue(1);
    }

    @Test
    void closeCancelsAndRunsTheHooksOnceEvenAfterSuccess() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        RequestScope scope = RequestScope.open("close-hooks", NO_DEADLINE, null);
        scope.onCancel(runs::incrementAndGet);
        scope.onCancel(runs::incrementAndGet); // the same action twice is two registrations
        scope.fork(() -> "ok");
        assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
        assertThat(runs).hasValue(0);
        scope.close();
        assertThat(runs).hasValue(2);
        assertThat(scope.cancelReason()).isEqualTo("closed");
        scope.close();
        assertThat(runs).hasValue(2);
    }

    @Test
    void aThrowingHookDoesNotStopTheOthers() {
        AtomicInteger runs = new AtomicInteger();
        try (RequestScope scope = RequestScope.open("bad-hook", NO_DEADLINE, null)) {
            scope.onCancel(runs::incrementAndGet);
            scope.onCancel(() -> {
                throw new IllegalStateException("hook broke");
            });
            scope.onCancel(runs::incrementAndGet);
            scope.cancel("go");
            assertThat(runs).hasValue(2);
            scope.onCancel(() -> {
                throw new IllegalStateException("late hook broke");
            });
        }
        assertThat(runs).hasValue(2);
    }

    @Test
    void hooksRunExactlyOnceWithManyThreadsCancellingAndRegisteringAtOnce() throws Exception {
        int cancellers = 16;
        int registrars = 4;
        int hooksBefore = 100;
        int hooksPerRegistrar = 100;
        AtomicIntegerArray runs = new AtomicIntegerArray(hooksBefore + registrars * hooksPerRegistrar);
        CountDownLatch started = new CountDownLatch(3);
        CountDownLatch interrupted = new CountDownLatch(3);
        Set<String> reasons = ConcurrentHashMap.newKeySet();
        try (RequestScope scope = RequestScope.open("stampede", NO_DEADLINE, null)) {
            for (int i = 0; i < 3; i++) {
                scope.fork(blockUntilInterrupted(started, interrupted));
            }
            for (int i = 0; i < hooksBefore; i++) {
                int slot = i;
                scope.onCancel(() -> runs.incrementAndGet(slot));
            }
            await(started);
            CountDownLatch go = new CountDownLatch(1);
            List<Helper> helpers = new ArrayList<>();
            for (int i = 0; i < cancellers; i++) {
                String reason = "canceller " + i;
                reasons.add(reason);
                helpers.add(Helper.start(() -> {
                    await(go);
                    scope.cancel(reason);
                }));
            }
            for (int r = 0; r < registrars; r++) {
                int base = hooksBefore + r * hooksPerRegistrar;
                helpers.add(Helper.start(() -> {
                    await(go);
                    for (int i = 0; i < hooksPerRegistrar; i++) {
                        int slot = base + i;
                        scope.onCancel(() -> runs.incrementAndGet(slot));
                    }
                }));
            }
            go.countDown();
            for (Helper h : helpers) {
                h.join();
            }
            assertThat(scope.join()).isEqualTo(Outcome.CANCELLED);
            assertThat(reasons).contains(scope.cancelReason());
            await(interrupted);
        }
        for (int i = 0; i < runs.length(); i++) {
            assertThat(runs.get(i)).as("runs of hook %d", i).isEqualTo(1);
        }
    }

    @Test
    void aChildCancellingItsOwnScopeInterruptsTheOthersButNotItself() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Subtask<Boolean> self;
        try (RequestScope scope = RequestScope.open("self-cancel", NO_DEADLINE, null)) {
            scope.fork(blockUntilInterrupted(started, interrupted));
            self = scope.fork(() -> {
                await(started);
                scope.cancel("child is done");
                return Thread.currentThread().isInterrupted();
            });
            assertThat(scope.join()).isEqualTo(Outcome.CANCELLED);
            await(interrupted);
        }
        assertThat(self.get()).as("interrupted itself").isFalse();
    }

    // ---------------------------------------------------------------------------------------------- close

    @Test
    void closeWaitsForAChildThatIgnoresInterruptsUntilItFinishes() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interruptedOnce = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean childDone = new AtomicBoolean();
        AtomicBoolean closeReturned = new AtomicBoolean();
        AtomicReference<Boolean> closeReturnedBeforeRelease = new AtomicReference<>();
        RequestScope scope = RequestScope.open("stubborn", NO_DEADLINE, null);
        Subtask<String> sub = scope.fork(stubborn(started, interruptedOnce, release, childDone));
        await(started);
        Helper releaser = Helper.start(() -> {
            await(interruptedOnce); // close has cancelled the scope and is now waiting
            closeReturnedBeforeRelease.set(closeReturned.get());
            release.countDown();
        });
        scope.close();
        closeReturned.set(true);
        assertThat(childDone).as("child finished before close returned").isTrue();
        releaser.join();
        assertThat(closeReturnedBeforeRelease.get()).as("close returned while the child ran").isFalse();
        assertThat(sub.state()).isEqualTo(State.SUCCESS);
        assertThat(sub.get()).isEqualTo("finished");
        assertThat(McpThreads.live()).noneMatch(t -> t.getName().startsWith("mcp-stubborn-"));
    }

    @Test
    void closeReassertsAnInterruptReceivedWhileWaiting() throws Exception {
        Thread owner = Thread.currentThread();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interruptedOnce = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean childDone = new AtomicBoolean();
        RequestScope scope = RequestScope.open("close-interrupt", NO_DEADLINE, null);
        scope.fork(stubborn(started, interruptedOnce, release, childDone));
        await(started);
        Helper interrupter = Helper.start(() -> {
            await(interruptedOnce); // close has cancelled the scope and cannot return before the release
            owner.interrupt();
            release.countDown();
        });
        scope.close();
        boolean interruptedAfterClose = Thread.interrupted(); // clears it, for the rest of the test
        assertThat(interruptedAfterClose).as("interrupt re-asserted").isTrue();
        assertThat(childDone).as("the interrupt did not cut the wait short").isTrue();
        interrupter.join();
    }

    @Test
    void noChildThreadOutlivesTheScope() throws Exception {
        for (int round = 0; round < 500; round++) {
            CountDownLatch started = new CountDownLatch(3);
            try (RequestScope scope = RequestScope.open("outlive", NO_DEADLINE, null)) {
                for (int i = 0; i < 3; i++) {
                    scope.fork(blockUntilInterrupted(started, new CountDownLatch(1)));
                    scope.fork(() -> "quick");
                }
                await(started);
                assertThat(McpThreads.live()).filteredOn(t -> t.getName().startsWith("mcp-outlive-"))
                        .hasSizeGreaterThanOrEqualTo(3);
            }
            // at once, no grace: close returned only after every child left the live set
            assertThat(McpThreads.live()).as("round %d", round)
                    .noneMatch(t -> t.getName().startsWith("mcp-outlive-"));
        }
    }

    @Test
    void noChildThreadOutlivesACompletedScope() throws Exception {
        for (int round = 0; round < 500; round++) {
            try (RequestScope scope = RequestScope.open("outlive-ok", NO_DEADLINE, null)) {
                for (int i = 0; i < 3; i++) {
                    scope.fork(() -> "quick");
                }
                assertThat(scope.join()).isEqualTo(Outcome.COMPLETED);
            }
            assertThat(McpThreads.live()).as("round %d", round)
                    .noneMatch(t -> t.getName().startsWith("mcp-outlive-ok-"));
        }
    }

    // ---------------------------------------------------------------------------------------------- helpers

    /** A task that counts {@code started} down, blocks until interrupted, then counts {@code interrupted} down. */
    private static Callable<String> blockUntilInterrupted(CountDownLatch started, CountDownLatch interrupted) {
        return () -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return "unreachable";
        };
    }

    /** A task that ignores interrupts (counting the first) until {@code release} opens, then finishes. */
    private static Callable<String> stubborn(CountDownLatch started, CountDownLatch interruptedOnce,
                                             CountDownLatch release, AtomicBoolean done) {
        return () -> {
            started.countDown();
            while (true) {
                try {
                    if (!release.await(WAIT, SECONDS)) {
                        throw new AssertionError("never released");
                    }
                    break;
                } catch (InterruptedException e) {
                    interruptedOnce.countDown();
                }
            }
            done.set(true);
            return "finished";
        };
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertThat(latch.await(WAIT, SECONDS)).as("latch opened within %d s", WAIT).isTrue();
    }

    /** Runs {@code action} on a fresh (non-mcp) thread and returns what it threw, or {@code null}. */
    private static Throwable onOtherThread(Action action) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofVirtual().name("test-other").start(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        assertThat(t.join(Duration.ofSeconds(WAIT))).as("other thread ended").isTrue();
        return thrown.get();
    }

    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    /** A test helper thread (not an mcp- one) whose failure fails the test when joined. */
    static final class Helper {
        final Thread thread;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        private Helper(Action action) {
            this.thread = Thread.ofVirtual().name("test-helper").unstarted(() -> {
                try {
                    action.run();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
        }

        static Helper start(Action action) {
            Helper h = new Helper(action);
            h.thread.start();
            return h;
        }

        void join() throws InterruptedException {
            assertThat(thread.join(Duration.ofSeconds(WAIT))).as("helper ended").isTrue();
            if (failure.get() != null) {
                throw new AssertionError("helper failed", failure.get());
            }
        }
    }
}
