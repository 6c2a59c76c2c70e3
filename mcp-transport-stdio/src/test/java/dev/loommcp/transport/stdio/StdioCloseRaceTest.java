package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpClosedException;
import dev.loommcp.testing.LeakCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26 item 25: a stdio server dies with 2,000 calls in flight and the first caller to fail closes the client at
 * once (ordinary reconnect code). Every call must fail with the process's exit as the reason; a close racing the
 * failure made 536 to 1,021 of them fail with a bare "the client was closed" instead, because the pending calls were
 * woken before the session recorded why it closed. Real child process ({@code tiny-server.sh}), real client.
 */
@ExtendWith(LeakCheck.class)
@Timeout(180)
class StdioCloseRaceTest {

    private static final int CALLS = 2000;

    @Test
    void everyCallInFlightLearnsTheExitWhenTheFirstFailingCallerClosesTheClient() throws Exception {
        McpClient c = McpClient.newBuilder(StdioTransport.newBuilder("sh", Children.script("tiny-server.sh").toString())
                        .build())
                .requestTimeout(Duration.ofMinutes(5)) // far beyond the test's own timeout
                .build();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean closedByACaller = new AtomicBoolean();
        List<Thread> callers = new ArrayList<>();
        try {
            c.connect();
            for (int i = 0; i < CALLS; i++) {
                callers.add(Thread.ofVirtual().name("test-caller-" + i).start(() -> {
                    try {
                        c.callTool("hang", Map.of());
                        failures.add(new AssertionError("a call succeeded"));
                    } catch (Throwable e) {
                        failures.add(e);
                        if (closedByACaller.compareAndSet(false, true)) {
                            c.close(); // the first to fail closes, as reconnect code does
                        }
                    }
                }));
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (c.pendingRequestCount() < CALLS) {
                assertThat(System.nanoTime() - deadline).as("all calls in flight").isNegative();
                Thread.sleep(5);
            }
            Thread dier = Thread.ofVirtual().name("test-die").start(() -> {
                try {
                    c.callTool("die", Map.of());
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            callers.add(dier);
            for (Thread t : callers) {
                assertThat(t.join(Duration.ofSeconds(120))).as(t.getName() + " ended").isTrue();
            }
            // the client closed by a caller keeps reporting why it closed
            assertThatThrownBy(() -> c.callTool("work", Map.of())).isInstanceOf(McpClosedException.class)
                    .hasCauseInstanceOf(McpProcessExitedException.class);
        } finally {
            c.close();
        }
        assertThat(failures).hasSize(CALLS + 1);
        List<Throwable> withoutTheExit = failures.stream()
                .filter(e -> !(e instanceof McpProcessExitedException)
                        && !(e.getCause() instanceof McpProcessExitedException))
                .toList();
        assertThat(withoutTheExit).as(withoutTheExit.size() + " calls failed without the exit as their reason (first: "
                + withoutTheExit.stream().findFirst().map(Throwable::toString).orElse("none") + ")").isEmpty();
        assertThat(failures).allSatisfy(e -> assertThat(e.toString()).contains("exited with code 3"));
    }
}
