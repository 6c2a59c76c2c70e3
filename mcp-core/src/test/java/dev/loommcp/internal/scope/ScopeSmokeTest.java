package dev.loommcp.internal.scope;

import dev.loommcp.Deadline;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScopeSmokeTest {

    @Test
    void allSuccessfulJoinsEveryFork() throws Exception {
        try (Scope<Integer, List<Subtask<Integer>>> s = Scope.open("t", Joiner.allSuccessfulOrThrow(),
                Deadline.after(Duration.ofSeconds(5)))) {
            s.fork("a", () -> 1);
            s.fork("b", () -> 2);
            assertThat(s.join()).extracting(Subtask::get).containsExactly(1, 2);
        }
        assertThat(ScopeThreads.current()).isNull();
    }

    @Test
    void aFailureCancelsTheOthersAndCloseWaitsForThem() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Thread[] slow = new Thread[1];
        try (Scope<Object, List<Subtask<Object>>> s = Scope.open("t", Joiner.allSuccessfulOrThrow(),
                Deadline.NONE)) {
            s.fork("slow", () -> {
                slow[0] = Thread.currentThread();
                started.countDown();
                Thread.sleep(60_000);
                return null;
            });
            started.await();
            s.fork("bad", () -> {
                throw new IllegalStateException("boom");
            });
            assertThatThrownBy(s::join).isInstanceOf(ScopeFailedException.class).hasRootCauseMessage("boom");
        }
        assertThat(slow[0].isAlive()).isFalse();
    }

    @Test
    void joinPastTheDeadlineTimesOutAndNestedScopesInheritIt() throws Exception {
        try (Scope<Object, Void> s = Scope.open("t", Joiner.awaitAll(), Deadline.after(Duration.ofMillis(200)))) {
            try (Scope<Object, Void> inner = Scope.open("inner", Joiner.awaitAll(), Deadline.NONE)) {
                assertThat(inner.parent()).isSameAs(s);
                assertThat(inner.deadline()).isEqualTo(s.deadline());
            }
            s.fork("sleep", () -> {
                Thread.sleep(60_000);
                return null;
            });
            assertThatThrownBy(s::join).isInstanceOf(ScopeTimeoutException.class);
        }
    }
}
