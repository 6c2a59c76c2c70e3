package dev.loommcp.internal.scope;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.loommcp.internal.scope.Forks.blockUntilInterrupted;
import static dev.loommcp.internal.scope.Forks.sleepIgnoringInterrupts;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract of {@link Scope}, the JDK's {@code StructuredTaskScope} contract on Java 21's stable APIs: the joiners'
 * outcomes, the deadline of {@code join}, interrupts, cancellation of forks and child scopes, {@code close} waiting for
 * every fork, confinement, nesting, platform forks and the unconfined scope. Every test checks that no thread is left
 * behind, virtual or platform ({@link LeakCheck}).
 */
@ExtendWith(LeakCheck.class)
@Timeout(value = 60, unit = SECONDS)
class ScopeTest {

    private static final long WAIT = 30;

    // -------------------------------------------------------------------------------------------- helpers

    private static Scope<Object, Void> openAwaitAll() {
        return Scope.open("test", Joiner.awaitAll(), Deadline.NONE);
    }

    private static <T> T callOn(Supplier<T> body) throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name("stranger").start(() -> {
            try {
                result.set(body.get());
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join(SECONDS.toMillis(WAIT));
        assertThat(t.isAlive()).isFalse();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return result.get();
    }

    private static Throwable failureOn(Runnable body) throws InterruptedException {
        return callOn(() -> {
            try {
                body.run();
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
    }

    // -------------------------------------------------------------------------------------------- joiners

    @Test
    void allSuccessfulReturnsEveryForkInForkOrder() throws Exception {
        try (Scope<Integer, List<Subtask<Integer>>> s = Scope.open("t", Joiner.allSuccessfulOrThrow(),
                Deadline.after(Duration.ofSeconds(WAIT)))) {
            for (int i = 0; i < 20; i++) {
                int n = i;
                s.fork("n", () -> n);
            }
            List<Subtask<Integer>> done = s.join();
            assertThat(done).extracting(Subtask::get).containsExactlyElementsOf(
                    java.util.stream.IntStream.range(0, 20).boxed().toList());
            assertThat(done).allMatch(t -> t.state() == Subtask.State.SUCCESS);
        }
    }

    @Test
    void allSuccessfulThrowsTheFirstFailureAndCancelsTheRest() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        AtomicInteger interrupts = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("boom");
        try (Scope<Object, List<Subtask<Object>>> s = Scope.open("t", Joiner.allSuccessfulOrThrow(),
                Deadline.NONE)) {
            s.fork("slow", blockUntilInterrupted(started, interrupts));
            s.fork("slow", blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            Subtask<Object> bad = s.fork("bad", () -> {
                throw boom;
            });
            assertThatThrownBy(s::join).isInstanceOf(ScopeFailedException.class).hasCause(boom);
            assertThat(s.isCancelled()).isTrue();
            assertThat(bad.state()).isEqualTo(Subtask.State.FAILED);
            assertThat(bad.exception()).isSameAs(boom);
            assertThatThrownBy(bad::get).isInstanceOf(IllegalStateException.class);
        }
        assertThat(interrupts).hasValue(2);
    }

    @Test
    void allSuccessfulWithNothingForkedReturnsAnEmptyList() throws Exception {
        try (Scope<Object, List<Subtask<Object>>> s = Scope.open("t", Joiner.allSuccessfulOrThrow(),
                Deadline.NONE)) {
            assertThat(s.join()).isEmpty();
        }
    }

    @Test
    void anySuccessfulReturnsTheFirstResultAndCancelsTheRest() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (Scope<Object, Object> s = Scope.open("t", Joiner.anySuccessfulResultOrThrow(), Deadline.NONE)) {
            s.fork("slow", blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            s.fork("bad", () -> {
                throw new IllegalStateException("boom");
            });
            s.fork("good", () -> "first");
            assertThat(s.join()).isEqualTo("first");
            assertThat(s.isCancelled()).isTrue();
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void anySuccessfulWhenEveryForkFailsThrowsAFailure() throws Exception {
        try (Scope<Object, Object> s = Scope.open("t", Joiner.anySuccessfulResultOrThrow(), Deadline.NONE)) {
            s.fork("bad", () -> {
                throw new IllegalStateException("one");
            });
            s.fork("bad", () -> {
                throw new IllegalStateException("two");
            });
            assertThatThrownBy(s::join).isInstanceOf(ScopeFailedException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void anySuccessfulWithNothingForkedThrowsAFailureOfNoSuchElement() throws Exception {
        try (Scope<Object, Object> s = Scope.open("t", Joiner.anySuccessfulResultOrThrow(), Deadline.NONE)) {
            assertThatThrownBy(s::join).isInstanceOf(ScopeFailedException.class)
                    .hasCauseInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void awaitAllWaitsForEveryForkWhateverItsOutcome() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (Scope<Object, Void> s = openAwaitAll()) {
            Subtask<Object> bad = s.fork("bad", () -> {
                throw new IllegalStateException("boom");
            });
            Subtask<Object> late = s.fork("late", () -> {
                release.await();
                return "late";
            });
            Thread releaser = Thread.ofPlatform().start(release::countDown);
            assertThat(s.join()).isNull();
            releaser.join();
            assertThat(bad.state()).isEqualTo(Subtask.State.FAILED);
            assertThat(late.get()).isEqualTo("late");
            assertThat(s.isCancelled()).as("every fork ended: nothing to cancel").isFalse();
            assertThatThrownBy(() -> s.fork("late", () -> null)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("joined");
        }
    }

    @Test
    void aTaskStartedWithStartIsNotReportedToTheJoiner() throws Exception {
        CountDownLatch helperDone = new CountDownLatch(1);
        try (Scope<Object, Object> s = Scope.open("t", Joiner.anySuccessfulResultOrThrow(), Deadline.NONE)) {
            s.start("helper", helperDone::countDown, false);
            assertThat(helperDone.await(WAIT, SECONDS)).isTrue();
            assertThat(s.isCancelled()).as("a helper's end is no fork's success").isFalse();
            s.fork("answer", () -> "answer");
            assertThat(s.join()).isEqualTo("answer");
        }
    }

    // -------------------------------------------------------------------------------------------- join

    @Test
    void joinPastTheDeadlineThrowsTimeoutAndCancelsTheScope() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (Scope<Object, Void> s = Scope.open("t", Joiner.awaitAll(), Deadline.after(Duration.ofMillis(200)))) {
            Subtask<Object> slow = s.fork("slow", blockUntilInterrupted(started, interrupts));
            assertThatThrownBy(s::join).isInstanceOf(ScopeTimeoutException.class).hasMessageContaining("t");
            assertThat(s.isCancelled()).isTrue();
            s.close();
            assertThat(slow.state()).isEqualTo(Subtask.State.UNAVAILABLE); // ended after the cancel
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void joinWhenTheOwnerIsInterruptedCancelsTheScopeAndThrows() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        Thread owner = Thread.currentThread();
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.fork("slow", blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            Thread interrupter = Thread.ofPlatform().start(() -> {
                while (owner.getState() != Thread.State.WAITING) {
                    Thread.onSpinWait();
                }
                owner.interrupt();
            });
            assertThatThrownBy(s::join).isInstanceOf(InterruptedException.class);
            interrupter.join();
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
            assertThat(s.isCancelled()).isTrue();
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void joinWithTheInterruptStatusSetThrowsAtOnce() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            Thread.currentThread().interrupt();
            assertThatThrownBy(s::join).isInstanceOf(InterruptedException.class);
            assertThat(s.isCancelled()).isTrue();
        }
    }

    @Test
    void joinAfterAnOutsideCancelThrowsCancelled() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (Scope<Object, List<Subtask<Object>>> s = Scope.open("t", Joiner.allSuccessfulOrThrow(),
                Deadline.NONE)) {
            s.fork("slow", blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            callOn(() -> {
                s.cancel();
                return null;
            });
            assertThatThrownBy(s::join).isInstanceOf(ScopeCancelledException.class).hasMessageContaining("t");
        }
    }

    @Test
    void joinOnlyByTheOwnerAndOnlyOnce() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            assertThat(failureOn(() -> {
                try {
                    s.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            })).isInstanceOf(IllegalStateException.class);
            Subtask<Object> inFork = s.fork("joiner", () -> {
                s.join();
                return null;
            });
            s.join();
            assertThat(inFork.exception()).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(s::join).isInstanceOf(IllegalStateException.class);
        }
    }

    // -------------------------------------------------------------------------------------------- cancel

    @Test
    void cancelInterruptsEveryForkAndCancelsChildScopesAndTheirForks() throws Exception {
        CountDownLatch started = new CountDownLatch(3);
        AtomicInteger interrupts = new AtomicInteger();
        AtomicReference<Scope<?, ?>> child = new AtomicReference<>();
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.fork("plain", blockUntilInterrupted(started, interrupts));
            s.fork("nester", () -> {
                try (Scope<Object, Void> inner = Scope.open("inner", Joiner.awaitAll(), Deadline.NONE)) {
                    child.set(inner);
                    assertThat(inner.parent()).isSameAs(s);
                    inner.fork("grandchild", blockUntilInterrupted(started, interrupts));
                    inner.forkPlatform("grandchild-platform", blockUntilInterrupted(started, interrupts));
                    inner.join();
                }
                return null;
            });
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            s.cancel();
            assertThat(s.isCancelled()).isTrue();
            assertThat(child.get().isCancelled()).isTrue();
        }
        assertThat(interrupts).hasValue(3);
    }

    @Test
    void cancelActionsRunOnceAlsoWhenRegisteredAfterTheCancel() throws Exception {
        AtomicInteger before = new AtomicInteger();
        AtomicInteger after = new AtomicInteger();
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.onCancel(before::incrementAndGet);
            List<Thread> cancellers = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int i = 0; i < 8; i++) {
                cancellers.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    s.cancel();
                }));
            }
            go.countDown();
            for (Thread t : cancellers) {
                t.join();
            }
            assertThat(before).hasValue(1);
            s.onCancel(after::incrementAndGet);
            assertThat(after).hasValue(1);
            s.cancel();
        }
        assertThat(before).hasValue(1);
        assertThat(after).hasValue(1);
    }

    @Test
    void aFailingCancelActionDoesNotStopTheOthers() {
        AtomicInteger ran = new AtomicInteger();
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.onCancel(() -> {
                throw new IllegalStateException("broken action");
            });
            s.onCancel(ran::incrementAndGet);
            s.cancel();
        }
        assertThat(ran).hasValue(1);
    }

    @Test
    void closeRunsTheCancelActions() {
        AtomicInteger ran = new AtomicInteger();
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.onCancel(ran::incrementAndGet);
        }
        assertThat(ran).hasValue(1);
    }

    @Test
    void forkAfterCancelStartsNothing() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.cancel();
            Subtask<Object> late = s.fork("late", () -> ran.getAndSet(true));
            Subtask<Object> latePlatform = s.forkPlatform("late", () -> ran.getAndSet(true));
            assertThat(s.start("late", () -> ran.set(true), false)).isNull();
            assertThat(late.state()).isEqualTo(Subtask.State.UNAVAILABLE);
            assertThat(latePlatform.state()).isEqualTo(Subtask.State.UNAVAILABLE);
            assertThatThrownBy(late::get).isInstanceOf(IllegalStateException.class);
            assertThat(s.runningForks()).isZero();
            assertThat(s.containerNames()).isEmpty();
        }
        assertThat(ran).isFalse();
    }

    @Test
    void forkAfterCloseThrows() {
        Scope<Object, Void> s = openAwaitAll();
        s.close();
        assertThatThrownBy(() -> s.fork("late", () -> null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> s.forkPlatform("late", () -> null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> s.start("late", () -> { }, false)).isInstanceOf(IllegalStateException.class);
        assertThat(s.isCancelled()).isTrue();
    }

    @Test
    void aJoinerIsNotToldOfAForkAfterClose() {
        AtomicInteger forks = new AtomicInteger();
        Joiner<Object, Void> counting = new Joiner<>() {
            @Override
            public boolean onFork(Subtask<? extends Object> subtask) {
                forks.incrementAndGet();
                return false;
            }

            @Override
            public Void result() {
                return null;
            }
        };
        Scope<Object, Void> s = Scope.open("t", counting, Deadline.NONE);
        s.close();
        assertThatThrownBy(() -> s.fork("late", () -> null)).isInstanceOf(IllegalStateException.class);
        assertThat(forks).hasValue(0);
    }

    // -------------------------------------------------------------------------------------------- close

    @Test
    void closeReturnsOnlyWhenEveryForkHasEnded() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        AtomicInteger done = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteList();
        try (Scope<Object, Void> s = openAwaitAll()) {
            for (int i = 0; i < 2; i++) {
                ForkFn forker = i == 0 ? s::fork : s::forkPlatform;
                forker.fork("stubborn", () -> {
                    threads.add(Thread.currentThread());
                    started.countDown();
                    sleepIgnoringInterrupts(Duration.ofMillis(300));
                    done.incrementAndGet();
                    return null;
                });
            }
            assertThat(started.await(WAIT, SECONDS)).isTrue();
        }
        assertThat(done).hasValue(2);
        for (Thread t : threads) { // past its task; the thread itself ends at once
            t.join(SECONDS.toMillis(WAIT));
            assertThat(t.isAlive()).isFalse();
        }
    }

    @Test
    void closeWhileInterruptedWaitsAndReSetsTheInterruptStatus() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        Scope<Object, Void> s = openAwaitAll();
        s.fork("stubborn", () -> {
            started.countDown();
            sleepIgnoringInterrupts(Duration.ofMillis(300));
            done.set(true);
            return null;
        });
        assertThat(started.await(WAIT, SECONDS)).isTrue();
        Thread.currentThread().interrupt();
        s.close();
        assertThat(Thread.interrupted()).isTrue();
        assertThat(done).isTrue();
        assertThat(s.runningForks()).isZero();
    }

    @Test
    void closeWithinIsBoundedAndALaterCloseStillWaits() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        Scope<Object, Void> s = openAwaitAll();
        s.fork("stubborn", () -> {
            started.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            sleepIgnoringInterrupts(Duration.ofMillis(200));
            done.set(true);
            return interrupted;
        });
        assertThat(started.await(WAIT, SECONDS)).isTrue();
        assertThat(s.closeWithin(Deadline.after(Duration.ofMillis(100)))).isFalse();
        assertThat(ScopeThreads.current()).as("closed, though a fork still runs").isNull();
        assertThat(s.runningForks()).isEqualTo(1);
        release.countDown();
        s.close();
        assertThat(done).as("close() returns only when every fork has ended").isTrue();
        assertThat(s.closeWithin(Deadline.after(Duration.ofMillis(1)))).isTrue();
    }

    @Test
    void closeWaitsForTheForksOfChildScopes() throws Exception {
        CountDownLatch childForked = new CountDownLatch(1);
        CountDownLatch closeChild = new CountDownLatch(1);
        AtomicBoolean grandchildDone = new AtomicBoolean();
        AtomicReference<Throwable> strangerFailure = new AtomicReference<>();
        Scope<Object, Void> s = openAwaitAll();
        // a thread outside s opens a scope under it (the fallback parent), as a request's thread does under the client
        Thread stranger = Thread.ofPlatform().name("stranger").start(() -> {
            try (Scope<Object, Void> child = Scope.open("child", Joiner.awaitAll(), Deadline.NONE, s, null)) {
                assertThat(child.parent()).isSameAs(s);
                child.fork("stubborn", () -> {
                    childForked.countDown();
                    sleepIgnoringInterrupts(Duration.ofMillis(300));
                    grandchildDone.set(true);
                    return null;
                });
                closeChild.await();
            } catch (Throwable e) {
                strangerFailure.set(e);
            }
        });
        assertThat(childForked.await(WAIT, SECONDS)).isTrue();
        s.close();
        assertThat(grandchildDone).as("nothing under a closed scope runs").isTrue();
        closeChild.countDown();
        stranger.join();
        assertThat(strangerFailure.get()).isNull();
    }

    @Test
    void aScopeUnderItsFallbackParentThatNeverForkedStillEndsWithIt() throws Exception {
        // a request's scope under the client's joins the client's children only when it first needs to; until then
        // the parent's cancel reaches it all the same: cancelled, its cancel actions run, nothing starts in it
        Scope<Object, Void> client = Scope.openUnconfined("client");
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch opened = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        List<String> seen = new ArrayList<>();
        Thread caller = Thread.ofPlatform().name("caller").start(() -> {
            try (Scope<Object, Void> request = Scope.open("tools/call", Joiner.awaitAll(), Deadline.NONE, client,
                    null)) {
                seen.add("open and cancelled: " + request.isCancelled());
                opened.countDown();
                cancelled.await();
                seen.add("after the parent's cancel: " + request.isCancelled() + ", " + request.endedBy());
                AtomicBoolean action = new AtomicBoolean();
                request.onCancel(() -> action.set(true));
                seen.add("cancel action ran at once: " + action.get());
                Subtask<Object> late = request.fork("late", () -> ran.getAndSet(true));
                seen.add("fork: " + late.state());
                assertThatThrownBy(() -> Scope.open("inner", Joiner.awaitAll(), Deadline.NONE))
                        .isInstanceOf(IllegalStateException.class);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        assertThat(opened.await(WAIT, SECONDS)).isTrue();
        client.cancel();
        cancelled.countDown();
        caller.join();
        client.close();
        assertThat(failure.get()).isNull();
        assertThat(seen).containsExactly("open and cancelled: false",
                "after the parent's cancel: true, the enclosing client ended", "cancel action ran at once: true",
                "fork: UNAVAILABLE");
        assertThat(ran).isFalse();
    }

    @Test
    void aStartRacingTheCloseOfAnUnattachedScopeLeavesNoClosedScopeUnderItsParent() throws Exception {
        // a request's scope joins its parent's children on its first start(); a start() from a transport's thread
        // that races the close must not leave the closed scope among the parent's children (a leak per call)
        Scope<Object, Void> client = Scope.openUnconfined("client");
        try {
            for (int i = 0; i < 500; i++) {
                AtomicReference<Scope<Object, Void>> opened = new AtomicReference<>();
                CountDownLatch open = new CountDownLatch(1);
                CountDownLatch started = new CountDownLatch(1);
                Thread owner = Thread.ofPlatform().name("owner").start(() -> {
                    Scope<Object, Void> request = Scope.open("tools/call", Joiner.awaitAll(), Deadline.NONE, client,
                            null);
                    opened.set(request);
                    open.countDown();
                    try {
                        started.await(WAIT, SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    request.close();
                });
                assertThat(open.await(WAIT, SECONDS)).isTrue();
                started.countDown();
                try {
                    opened.get().start("exchange", () -> { }, false);
                } catch (IllegalStateException closedMeanwhile) {
                    // the close came first: nothing started
                }
                owner.join();
            }
            assertThat(client.attachedChildren()).as("closed request scopes left under the client").isZero();
        } finally {
            client.close();
        }
    }

    @Test
    void closeIsIdempotent() {
        Scope<Object, Void> s = openAwaitAll();
        s.close();
        s.close();
        assertThat(s.isCancelled()).isTrue();
        assertThat(s.toString()).contains("test").contains("closed");
    }

    // -------------------------------------------------------------------------------------------- confinement

    @Test
    void forkFromAStrangerThreadThrows() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            assertThat(failureOn(() -> s.fork("stranger", () -> null))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("stranger");
            assertThat(failureOn(() -> s.forkPlatform("stranger", () -> null)))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(s.runningForks()).isZero();
        }
    }

    @Test
    void forksOfForksAreAllowedAlsoFromANestedScope() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            Subtask<Object> outer = s.fork("outer", () -> s.fork("inner", () -> "grandchild"));
            Subtask<Object> nesting = s.fork("nesting", () -> {
                try (Scope<Object, Void> inner = Scope.open("inner", Joiner.awaitAll(), Deadline.NONE)) {
                    Subtask<Object> back = s.fork("back", () -> "from a nested scope of a fork");
                    inner.join();
                    return back;
                }
            });
            s.join();
            assertThat(outer.state()).as(String.valueOf(outer)).isEqualTo(Subtask.State.SUCCESS);
            assertThat(nesting.state()).as(nesting.state() == Subtask.State.FAILED
                    ? nesting.exception().toString() : "").isEqualTo(Subtask.State.SUCCESS);
        }
    }

    @Test
    void closeOnlyByTheOwner() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            assertThat(failureOn(s::close)).isInstanceOf(IllegalStateException.class).hasMessageContaining("owner");
            Subtask<Object> inFork = s.fork("closer", () -> {
                s.close();
                return null;
            });
            s.join();
            assertThat(inFork.exception()).isInstanceOf(IllegalStateException.class);
            assertThat(failureOn(() -> s.closeWithin(Deadline.NONE))).isInstanceOf(IllegalStateException.class);
        }
    }

    // -------------------------------------------------------------------------------------------- nesting

    @Test
    void currentIsTheScopeInItsOwnerAndInItsForks() throws Exception {
        assertThat(ScopeThreads.current()).isNull();
        try (Scope<Object, Void> s = openAwaitAll()) {
            assertThat(ScopeThreads.current()).isSameAs(s);
            Subtask<Object> seen = s.fork("looker", ScopeThreads::current);
            Subtask<Object> seenOnPlatform = s.forkPlatform("looker", ScopeThreads::current);
            s.join();
            assertThat(seen.get()).isSameAs(s);
            assertThat(seenOnPlatform.get()).isSameAs(s);
            try (Scope<Object, Void> inner = Scope.open("inner", Joiner.awaitAll(), Deadline.NONE)) {
                assertThat(ScopeThreads.current()).isSameAs(inner);
                assertThat(inner.parent()).isSameAs(s);
            }
            assertThat(ScopeThreads.current()).isSameAs(s);
        }
        assertThat(ScopeThreads.current()).isNull();
    }

    @Test
    void aForkKnowsTheScopeThatStartedItAlsoInsideScopesItOpensItself() throws Exception {
        try (Scope<Object, Void> s = Scope.openUnconfined("root-of-test")) {
            Subtask<Object> seen = null;
            try (Scope<Object, Void> confined = Scope.open("confined", Joiner.awaitAll(), Deadline.NONE, s, null)) {
                assertThat(ScopeThreads.inTree(s)).as("the owner is not a fork of the tree").isFalse();
                seen = confined.fork("nester", () -> {
                    List<Boolean> inTree = new ArrayList<>();
                    inTree.add(ScopeThreads.inTree(s));
                    try (Scope<Object, Void> own = Scope.open("own", Joiner.awaitAll(), Deadline.NONE)) {
                        try (Scope<Object, Void> deeper = Scope.open("deeper", Joiner.awaitAll(), Deadline.NONE)) {
                            inTree.add(ScopeThreads.inTree(s));
                            inTree.add(ScopeThreads.forkOf() == confined);
                        }
                        inTree.add(ScopeThreads.current() == own);
                    }
                    inTree.add(ScopeThreads.current() == confined);
                    return inTree;
                });
                confined.join();
            }
            assertThat(seen.get()).isEqualTo(List.of(true, true, true, true, true));
        }
    }

    @Test
    void aThreadOutsideEveryScopeLeavesNoTraceAndOneThatEndsInAScopeIsSweptOut() throws Exception {
        int before = ScopeThreads.threadsInScopes();
        List<Object> seenOutside = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread outside = Thread.ofVirtual().start(() -> {
            seenOutside.add(String.valueOf(ScopeThreads.current()));
            seenOutside.add(ScopeThreads.inTree(Scope.openUnconfined("never-forked")));
        });
        outside.join();
        assertThat(seenOutside).containsExactly("null", false);
        assertThat(ScopeThreads.threadsInScopes()).as("asking costs no entry").isEqualTo(before);

        // a thread that ends without closing its scope (an application's McpScope left open) ...
        Thread leaker = Thread.ofVirtual().start(() -> Scope.open("left-open", Joiner.awaitAll(), Deadline.NONE));
        leaker.join();
        assertThat(ScopeThreads.threadsInScopes()).isEqualTo(before + 1);
        // ... is dropped by the sweep that the next entries bring
        for (int i = 0; i < ScopeThreads.SWEEP_EVERY; i++) {
            try (Scope<Object, Void> s = openAwaitAll()) {
                assertThat(ScopeThreads.current()).isSameAs(s);
            }
        }
        assertThat(ScopeThreads.threadsInScopes()).isEqualTo(before);
    }

    @Test
    void aChildDeadlineIsNeverLaterThanItsParents() {
        Deadline parentDeadline = Deadline.after(Duration.ofHours(1));
        try (Scope<Object, Void> s = Scope.open("parent", Joiner.awaitAll(), parentDeadline)) {
            try (Scope<Object, Void> none = Scope.open("none", Joiner.awaitAll(), Deadline.NONE)) {
                assertThat(none.deadline()).isEqualTo(parentDeadline);
            }
            try (Scope<Object, Void> later = Scope.open("later", Joiner.awaitAll(),
                    Deadline.after(Duration.ofHours(2)))) {
                assertThat(later.deadline()).isEqualTo(parentDeadline);
            }
            Deadline sooner = Deadline.after(Duration.ofMinutes(1));
            try (Scope<Object, Void> earlier = Scope.open("earlier", Joiner.awaitAll(), sooner)) {
                assertThat(earlier.deadline()).isEqualTo(sooner);
            }
        }
    }

    @Test
    void closingOutOfOrderThrowsAfterClosingEveryScopeOpenedInside() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        Scope<Object, Void> outer = openAwaitAll();
        Scope<Object, Void> inner = Scope.open("inner", Joiner.awaitAll(), Deadline.NONE);
        inner.fork("slow", blockUntilInterrupted(started, interrupts));
        assertThat(started.await(WAIT, SECONDS)).isTrue();

        assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("inner");
        assertThat(outer.isCancelled()).isTrue();
        assertThat(inner.isCancelled()).isTrue();
        assertThat(inner.runningForks()).as("the inner scope was closed too").isZero();
        assertThat(interrupts).hasValue(1);
        assertThat(ScopeThreads.current()).as("the thread is in no scope").isNull();
        assertThatThrownBy(() -> inner.fork("late", () -> null)).isInstanceOf(IllegalStateException.class);

        inner.close(); // the try-with-resources of the inner scope: already closed, nothing to do
        assertThat(ScopeThreads.current()).isNull();
        try (Scope<Object, Void> next = openAwaitAll()) {
            assertThat(next.parent()).as("a new scope does not land under a closed one").isNull();
        }
    }

    @Test
    void openingUnderAnEndedParentThrows() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            s.cancel();
            assertThatThrownBy(() -> Scope.open("child", Joiner.awaitAll(), Deadline.NONE))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("test");
            assertThat(ScopeThreads.current()).isSameAs(s);
        }
        Scope<Object, Void> closed = openAwaitAll();
        closed.close();
        assertThatThrownBy(() -> Scope.open("child", Joiner.awaitAll(), Deadline.NONE, closed, null))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ScopeThreads.current()).isNull();
    }

    // -------------------------------------------------------------------------------------------- threads

    @Test
    void forksAreNamedVirtualThreadsAndPlatformForksAreDaemonPlatformThreads() throws Exception {
        try (Scope<Object, Void> s = openAwaitAll()) {
            Subtask<Thread> virtual = s.fork("worker", Thread::currentThread);
            Subtask<Thread> platform = s.forkPlatform("pipe-reader", Thread::currentThread);
            s.join();
            assertThat(virtual.get().isVirtual()).isTrue();
            assertThat(virtual.get().getName()).matches("mcp-worker-\\d+");
            assertThat(platform.get().isVirtual()).isFalse();
            assertThat(platform.get().isDaemon()).isTrue();
            assertThat(platform.get().getName()).matches("mcp-pipe-reader-\\d+");
            assertThat(s.containerNames()).hasSize(2);
        }
    }

    @Test
    void anUnconfinedScopeAcceptsForksFromAnyThreadAndIsNotCurrent() throws Exception {
        Scope<Object, Void> client = Scope.openUnconfined("client");
        assertThat(ScopeThreads.current()).isNull();
        CountDownLatch started = new CountDownLatch(2);
        AtomicInteger interrupts = new AtomicInteger();
        assertThat(callOn(() -> client.fork("reader", blockUntilInterrupted(started, interrupts)))).isNotNull();
        // The looker's answer is read from a reference it sets, not from its subtask: a fork that completes after
        // close() began cancelling has no result (UNAVAILABLE), which is the scope's contract, not this test's point.
        AtomicReference<Object> seen = new AtomicReference<>();
        CountDownLatch looked = new CountDownLatch(1);
        client.fork("looker", () -> {
            seen.set(ScopeThreads.current());
            looked.countDown();
            return null;
        });
        client.forkPlatform("pipe", blockUntilInterrupted(started, interrupts));
        assertThat(started.await(WAIT, SECONDS)).isTrue();
        assertThat(looked.await(WAIT, SECONDS)).isTrue();
        assertThatThrownBy(client::join).isInstanceOf(IllegalStateException.class);
        assertThat(failureOn(client::close)).as("any thread may close it").isNull();
        assertThat(seen.get()).isSameAs(client);
        assertThat(interrupts).hasValue(2);
        assertThat(client.parent()).isNull();
        assertThat(client.deadline()).isEqualTo(Deadline.NONE);
    }

    @Test
    void startReturnsTheStartedThreadFromAnyThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Scope<?, ?>> seen = new AtomicReference<>();
        try (Scope<Object, Void> s = openAwaitAll()) {
            Thread t = callOn(() -> s.start("exchange", () -> {
                seen.set(ScopeThreads.current());
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, false));
            assertThat(t).isNotNull();
            assertThat(t.getName()).matches("mcp-exchange-\\d+");
            assertThat(t.isAlive()).isTrue();
            assertThat(s.runningForks()).isEqualTo(1);
            Thread p = s.start("pipe", () -> { }, true);
            assertThat(p.isVirtual()).isFalse();
            release.countDown();
            t.join();
            p.join();
            assertThat(seen.get()).isSameAs(s);
        }
    }

    @Test
    void attachmentAndNameAreKept() {
        Object context = new Object();
        try (Scope<Object, Void> s = Scope.open("tools/call 7", Joiner.awaitAll(), Deadline.NONE, null,
                context)) {
            assertThat(s.attachment()).isSameAs(context);
            assertThat(s.name()).isEqualTo("tools/call 7");
        }
    }

    // -------------------------------------------------------------------------------------------- helpers

    @FunctionalInterface
    private interface ForkFn {
        Subtask<Object> fork(String purpose, java.util.concurrent.Callable<Object> task);
    }

    private static final class CopyOnWriteList extends java.util.concurrent.CopyOnWriteArrayList<Thread> {
        private static final long serialVersionUID = 1L;
    }

    /**
     * A cancel racing a fork: the executor may make the thread and then refuse to start it. Such a thread never runs
     * and must not count as left behind (the leak check of every test that closes a client under load saw one).
     */
    @Test
    void aForkThatACancelRacedLeavesNoUnstartedThreadBehind() throws Exception {
        for (int i = 0; i < 500; i++) {
            try (Scope<Object, Void> s = Scope.openUnconfined("race")) {
                CountDownLatch go = new CountDownLatch(1);
                Thread canceller = Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    s.cancel();
                });
                go.countDown();
                for (int f = 0; f < 20 && !s.isCancelled(); f++) {
                    s.start("race", () -> { }, false);
                }
                canceller.join();
            }
        }
        assertThat(dev.loommcp.internal.concurrent.McpThreads.live())
                .filteredOn(t -> t.getState() == Thread.State.NEW).isEmpty();
    }
}
