package dev.loommcp;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.loommcp.internal.scope.Forks.blockUntilInterrupted;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.internal.scope.Forks;
import dev.loommcp.internal.scope.Scope;
import dev.loommcp.internal.scope.ScopeThreads;
import dev.loommcp.internal.scope.Joiner;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The contract of the public fan-out scope {@link McpScope}: the four joiners, the deadline, interrupts, confinement
 * to the owner, subtasks, closing, and its place in the scope tree (inside a request it inherits the request's
 * deadline and ends with it). MCP calls in forks: {@code McpScopeCallsTest}.
 */
@ExtendWith(LeakCheck.class)
@Timeout(value = 60, unit = SECONDS)
class McpScopeTest {

    private static final long WAIT = 30;

    private static Throwable failureOnAnotherThread(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name("stranger").start(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join(SECONDS.toMillis(WAIT));
        return failure.get();
    }

    // -------------------------------------------------------------------------------------------- joiners

    @Test
    void allSuccessfulOrThrowGivesEverySubtaskInForkOrder() throws Exception {
        try (var scope = McpScope.open(McpScope.Joiner.<Integer>allSuccessfulOrThrow())) {
            for (int i = 0; i < 10; i++) {
                int n = i;
                scope.fork(() -> n);
            }
            List<Integer> results = scope.join().map(McpScope.Subtask::get).toList();
            assertThat(results).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        }
    }

    @Test
    void allSuccessfulOrThrowThrowsTheFailureAndCancelsTheRest() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        McpRpcException boom = new McpRpcException("tools/call", dev.loommcp.jsonrpc.RequestId.of(7),
                new dev.loommcp.jsonrpc.JsonRpcError(-32000, "tool broke", null));
        try (var scope = McpScope.open(McpScope.Joiner.<String>allSuccessfulOrThrow())) {
            McpScope.Subtask<String> slow = scope.fork(blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            McpScope.Subtask<String> bad = scope.fork(() -> {
                throw boom;
            });
            assertThatThrownBy(scope::join).isInstanceOf(McpScope.FailedException.class).hasCause(boom)
                    .hasMessageNotContaining("tool broke");
            assertThat(scope.isCancelled()).isTrue();
            assertThat(bad.state()).isEqualTo(McpScope.Subtask.State.FAILED);
            assertThat(bad.exception()).isSameAs(boom);
            scope.close();
            // it ended after the cancel: its outcome is not reported, as with the JDK's scope
            assertThat(slow.state()).isEqualTo(McpScope.Subtask.State.UNAVAILABLE);
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void anySuccessfulResultOrThrowGivesTheFirstResultAndCancelsTheRest() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (var scope = McpScope.open(McpScope.Joiner.<String>anySuccessfulResultOrThrow())) {
            scope.fork(blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            scope.fork(() -> "fast");
            assertThat(scope.join()).isEqualTo("fast");
            assertThat(scope.isCancelled()).isTrue();
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void anySuccessfulResultOrThrowWithoutSuccessThrows() throws Exception {
        try (var scope = McpScope.open(McpScope.Joiner.<String>anySuccessfulResultOrThrow())) {
            scope.fork(() -> {
                throw new IllegalStateException("no");
            });
            assertThatThrownBy(scope::join).isInstanceOf(McpScope.FailedException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
        }
        try (var scope = McpScope.open(McpScope.Joiner.<String>anySuccessfulResultOrThrow())) {
            assertThatThrownBy(scope::join).isInstanceOf(McpScope.FailedException.class)
                    .hasCauseInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void awaitAllSuccessfulOrThrowReturnsNullAndTheSubtasksHoldTheResults() throws Exception {
        try (McpScope<Object, Void> scope = McpScope.open()) {
            McpScope.Subtask<String> a = scope.fork(() -> "a");
            McpScope.Subtask<Object> b = scope.fork(() -> { });
            assertThat(scope.join()).isNull();
            assertThat(a.get()).isEqualTo("a");
            assertThat(b.state()).isEqualTo(McpScope.Subtask.State.SUCCESS);
            assertThat(b.get()).isNull();
        }
        try (var scope = McpScope.open(McpScope.Joiner.awaitAllSuccessfulOrThrow())) {
            scope.fork(() -> {
                throw new IllegalArgumentException("bad");
            });
            assertThatThrownBy(scope::join).isInstanceOf(McpScope.FailedException.class)
                    .hasCauseInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void awaitAllWaitsForEveryForkWhateverItsOutcome() throws Exception {
        try (var scope = McpScope.open(McpScope.Joiner.awaitAll())) {
            McpScope.Subtask<Object> bad = scope.fork(() -> {
                throw new IllegalStateException("no");
            });
            McpScope.Subtask<String> good = scope.fork(() -> {
                Thread.sleep(50);
                return "yes";
            });
            assertThat(scope.join()).isNull();
            assertThat(bad.exception()).isInstanceOf(IllegalStateException.class);
            assertThat(good.get()).isEqualTo("yes");
            assertThat(scope.isCancelled()).isFalse();
        }
    }

    // -------------------------------------------------------------------------------------------- deadline, interrupt

    @Test
    void joinPastTheTimeoutThrowsTimeoutAndCancelsTheForks() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (var scope = McpScope.open(McpScope.Joiner.<String>allSuccessfulOrThrow(),
                cf -> cf.withName("slow-group").withTimeout(Duration.ofMillis(200)))) {
            scope.fork(blockUntilInterrupted(started, interrupts));
            assertThatThrownBy(scope::join).isInstanceOf(McpScope.TimeoutException.class)
                    .hasMessageContaining("slow-group");
            assertThat(scope.isCancelled()).isTrue();
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void anInterruptOfTheOwnerInJoinCancelsTheForks() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (var scope = McpScope.open(McpScope.Joiner.<String>allSuccessfulOrThrow())) {
            scope.fork(blockUntilInterrupted(started, interrupts));
            assertThat(started.await(WAIT, SECONDS)).isTrue();
            Thread.currentThread().interrupt();
            assertThatThrownBy(scope::join).isInstanceOf(InterruptedException.class);
            assertThat(scope.isCancelled()).isTrue();
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void closeCancelsWhatIsLeftAndWaitsForIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        var scope = McpScope.open(McpScope.Joiner.<String>awaitAll());
        scope.fork(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.sleep(0); // the interrupt status is clear: a little more work after the cancel
                long end = System.nanoTime() + Duration.ofMillis(200).toNanos();
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                ended.set(true);
            }
            return null;
        });
        assertThat(started.await(WAIT, SECONDS)).isTrue();
        scope.close();
        assertThat(ended).isTrue();
        assertThat(scope.isCancelled()).isTrue();
        scope.close();
    }

    // -------------------------------------------------------------------------------------------- confinement

    @Test
    void onlyTheOwnerForksJoinsAndCloses() throws Exception {
        try (var scope = McpScope.open(McpScope.Joiner.<Object>awaitAll())) {
            assertThat(failureOnAnotherThread(() -> scope.fork(() -> "x"))).isInstanceOf(WrongThreadException.class);
            McpScope.Subtask<Object> forkInFork = scope.fork(() -> scope.fork(() -> "x"));
            assertThat(failureOnAnotherThread(() -> {
                try {
                    scope.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            })).isInstanceOf(WrongThreadException.class);
            assertThat(failureOnAnotherThread(scope::close)).isInstanceOf(WrongThreadException.class);
            scope.join();
            assertThat(forkInFork.exception()).isInstanceOf(WrongThreadException.class);
        }
    }

    /** An unnamed thread is described by what it is and its id, not by an empty name. */
    @Test
    void aForkFromAnUnnamedThreadNamesTheThreadInTheMessage() throws Exception {
        try (var scope = McpScope.open(McpScope.Joiner.<Object>awaitAll())) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong id = new AtomicLong();
            Thread t = Thread.ofVirtual().start(() -> {
                id.set(Thread.currentThread().threadId());
                try {
                    scope.fork(() -> "x");
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            t.join(SECONDS.toMillis(WAIT));
            assertThat(failure.get()).isInstanceOf(WrongThreadException.class)
                    .hasMessageStartingWith("an unnamed virtual thread (id " + id.get() + ") may not fork");
            assertThat(failureOnAnotherThread(() -> scope.fork(() -> "x"))).hasMessageStartingWith("stranger may not");
        }
    }

    /** A zero or negative timeout is refused as every other zero or negative duration of the API. */
    @Test
    void aZeroOrNegativeTimeoutIsRefused() {
        assertThatThrownBy(() -> McpScope.open(McpScope.Joiner.awaitAll(), cf -> cf.withTimeout(Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("withTimeout must be positive: PT0S");
        assertThatThrownBy(() -> McpScope.open(McpScope.Joiner.awaitAll(),
                cf -> cf.withTimeout(Duration.ofMillis(-1)))).isInstanceOf(IllegalArgumentException.class);
        assertThat(ScopeThreads.current()).isNull();
    }

    @Test
    void theOwnerReadsASubtaskOnlyAfterJoin() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (var scope = McpScope.open(McpScope.Joiner.<String>allSuccessfulOrThrow())) {
            McpScope.Subtask<String> s = scope.fork(() -> {
                release.await();
                return "done";
            });
            assertThat(s.state()).isEqualTo(McpScope.Subtask.State.UNAVAILABLE);
            assertThatThrownBy(s::get).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(s::exception).isInstanceOf(IllegalStateException.class);
            release.countDown();
            scope.join();
            assertThat(s.get()).isEqualTo("done");
            assertThatThrownBy(s::exception).isInstanceOf(IllegalStateException.class);
            assertThat(s.toString()).contains("SUCCESS");
        }
    }

    @Test
    void forkAfterJoinOrCloseAndASecondJoinThrow() throws Exception {
        var scope = McpScope.open(McpScope.Joiner.<String>awaitAll());
        scope.join();
        assertThatThrownBy(() -> scope.fork(() -> "late")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(scope::join).isInstanceOf(IllegalStateException.class);
        scope.close();
        assertThatThrownBy(() -> scope.fork(() -> "late")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void forksRunOnVirtualThreadsNamedAfterTheScope() throws Exception {
        try (var scope = McpScope.open(McpScope.Joiner.<Thread>allSuccessfulOrThrow(), cf -> cf.withName("research"))) {
            scope.fork(Thread::currentThread);
            Thread t = scope.join().findFirst().orElseThrow().get();
            assertThat(t.isVirtual()).isTrue();
            assertThat(t.getName()).matches("mcp-research-\\d+");
            assertThat(scope.toString()).contains("research");
        }
        try (var scope = McpScope.open(McpScope.Joiner.<Thread>allSuccessfulOrThrow())) {
            scope.fork(Thread::currentThread);
            assertThat(scope.join().findFirst().orElseThrow().get().getName()).matches("mcp-fanout-\\d+");
        }
    }

    @Test
    void nullArgumentsAreRejected() {
        assertThatThrownBy(() -> McpScope.open(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> McpScope.open(McpScope.Joiner.awaitAll(), cf -> null))
                .isInstanceOf(NullPointerException.class).hasMessage("configuration");
        assertThatThrownBy(() -> McpScope.open(McpScope.Joiner.awaitAll(), cf -> cf.withName(null)))
                .isInstanceOf(NullPointerException.class).hasMessage("name");
        assertThatThrownBy(() -> McpScope.open(McpScope.Joiner.awaitAll(), cf -> cf.withTimeout(null)))
                .isInstanceOf(NullPointerException.class).hasMessage("timeout");
        assertThat(ScopeThreads.current()).isNull();
    }

    // -------------------------------------------------------------------------------------------- the tree

    @Test
    void insideARequestTheScopeEndsAtTheRequestsDeadline() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        // stands for the scope of the request whose handler opens the fan-out
        try (Scope<Object, Void> request = Scope.open("tools/call 1", Joiner.awaitAll(),
                Deadline.after(Duration.ofMillis(200)))) {
            try (var scope = McpScope.open(McpScope.Joiner.<String>allSuccessfulOrThrow(),
                    cf -> cf.withTimeout(Duration.ofHours(1)))) {
                scope.fork(() -> {
                    assertThat(ScopeThreads.current().parent()).isSameAs(request);
                    assertThat(ScopeThreads.current().deadline()).isEqualTo(request.deadline());
                    return Forks.<String>blockUntilInterrupted(started, interrupts).call();
                });
                assertThatThrownBy(scope::join).isInstanceOf(McpScope.TimeoutException.class);
            }
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void whenTheRequestIsCancelledJoinThrowsMcpCancelledException() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger interrupts = new AtomicInteger();
        try (Scope<Object, Void> request = Scope.open("tools/call 2", Joiner.awaitAll(), Deadline.NONE)) {
            try (var scope = McpScope.open(McpScope.Joiner.<String>allSuccessfulOrThrow())) {
                scope.fork(blockUntilInterrupted(started, interrupts));
                assertThat(started.await(WAIT, SECONDS)).isTrue();
                Thread canceller = Thread.ofPlatform().start(request::cancel);
                assertThatThrownBy(scope::join).isInstanceOf(McpCancelledException.class);
                canceller.join();
                assertThat(scope.isCancelled()).isTrue();
            }
            assertThatThrownBy(() -> McpScope.open(McpScope.Joiner.awaitAll()))
                    .as("no fan-out opens in an ended request").isInstanceOf(McpCancelledException.class);
        }
        assertThat(interrupts).hasValue(1);
    }

    @Test
    void nestedScopesCloseInReverseOrder() throws Exception {
        var outer = McpScope.open(McpScope.Joiner.<Object>awaitAll());
        var inner = McpScope.open(McpScope.Joiner.<Object>awaitAll());
        assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class);
        assertThat(inner.isCancelled()).isTrue();
        inner.close();
        assertThat(ScopeThreads.current()).isNull();
    }
}
