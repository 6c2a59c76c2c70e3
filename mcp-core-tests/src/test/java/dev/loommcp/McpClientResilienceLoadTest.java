package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.event.McpClientListener;
import dev.loommcp.policy.CircuitBreakerPolicy;
import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import dev.loommcp.policy.RateLimit;
import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.policy.RetryPolicy;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The load test of issue 30 section 3: 1,000 virtual-thread callers against a server that fails half the time (and
 * is slow now and then, and now and then never answers), through a client with a circuit breaker, a concurrency
 * limit and retries. The breaker is seen to open and to close again, and no caller returns later than its own
 * deadline plus a bounded slack. Bounded waits only; nothing is asserted about speed.
 */
class McpClientResilienceLoadTest {

    /** How late past its own deadline a caller may return, on a loaded machine. */
    static final Duration SLACK = Duration.ofSeconds(2);

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @Test
    void aThousandCallersAgainstAServerThatFailsHalfTheTimeSeeTheBreakerOpenAndCloseAndNoneOutlivesItsDeadline()
            throws Exception {
        AtomicLong requests = new AtomicLong();
        List<CircuitStateChange> changes = new CopyOnWriteArrayList<>();
        ResiliencePolicy policy = ResiliencePolicy.newBuilder()
                .circuitBreaker(CircuitBreakerPolicy.newBuilder().failureThreshold(20).window(Duration.ofSeconds(1))
                        .openDuration(Duration.ofMillis(40)).halfOpenProbes(4).build())
                .rateLimit(RateLimit.concurrent(64))
                .retry(RetryPolicy.newBuilder().maxAttempts(2).initialBackoff(Duration.ofMillis(5)).build())
                .build();
        Session s = sessions.connected(Mode.INLINE, t -> t.on("ping", r -> {
            long n = requests.incrementAndGet();
            if (n % 2 == 0) {
                t.failSend(r.id(), new McpTransportException("connection reset"));
                return ScriptedTransport.HOLD;
            }
            if (n % 31 == 1) {
                return ScriptedTransport.HOLD; // never answered: its caller's deadline ends it
            }
            if (n % 7 == 1) {
                Thread.sleep(5); // slow now and then
            }
            return Map.of();
        }), b -> b.resilience(policy).listener(new McpClientListener() {
            @Override
            public void onCircuitStateChanged(CircuitStateChange change) {
                changes.add(change);
            }
        }));

        int callers = 1_000;
        int callsEach = 3;
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        AtomicLong latestPastDeadline = new AtomicLong(Long.MIN_VALUE);
        List<Throwable> unexpected = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            threads.add(Thread.ofVirtual().name("load-caller-" + i).start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int c = 0; c < callsEach; c++) {
                    try {
                        Thread.sleep(random.nextInt(150)); // callers arrive spread over time
                        long timeout = 200 + random.nextInt(600);
                        long deadline = System.nanoTime() + Duration.ofMillis(timeout).toNanos();
                        String outcome;
                        try {
                            s.client().ping(RequestOptions.ofTimeout(Duration.ofMillis(timeout)));
                            outcome = "ok";
                        } catch (McpException e) {
                            outcome = e.getClass().getSimpleName();
                        }
                        long late = System.nanoTime() - deadline;
                        latestPastDeadline.accumulateAndGet(late, Math::max);
                        outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                    } catch (InterruptedException e) {
                        unexpected.add(e);
                        return;
                    } catch (RuntimeException | Error e) {
                        unexpected.add(e);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            assertThat(t.join(Duration.ofSeconds(60))).as("caller %s ended", t.getName()).isTrue();
        }

        assertThat(unexpected).isEmpty();
        assertThat(outcomes.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(callers * callsEach);
        assertThat(outcomes).containsKeys("ok", "McpCircuitOpenException");
        assertThat(Duration.ofNanos(latestPastDeadline.get())).as("latest return past a caller's own deadline")
                .isLessThan(SLACK);
        Await.until("the listener heard the changes", () -> changes.size() >= 3);
        assertThat(changes).extracting(CircuitStateChange::state)
                .contains(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
        assertThat(changes.stream().filter(c -> c.previous() == CircuitState.HALF_OPEN
                && c.state() == CircuitState.CLOSED)).as("a probe closed the breaker").isNotEmpty();
        // the changes form one chain: each starts where the one before ended
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i).previous()).isEqualTo(changes.get(i - 1).state());
        }
    }
}
