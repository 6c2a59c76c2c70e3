package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.testing.LeakCheck;
import java.util.Map;
import java.util.concurrent.SynchronousQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The comparison's thread check counts the threads a call starts, virtual ones included (which the thread MXBean does
 * not see), and nothing the harness or JFR starts for itself.
 */
@ExtendWith(LeakCheck.class)
class ThreadStartsTest {

    @Test
    void aCallThatStartsNoThreadCountsZero() throws Exception {
        SynchronousQueue<String> queue = new SynchronousQueue<>();
        Thread echo = Thread.ofVirtual().name("test-echo").start(() -> {
            try {
                while (true) {
                    queue.put(queue.take());
                }
            } catch (InterruptedException e) {
                // the test ends it
            }
        });
        try {
            // a hand-off to a long-lived thread, as a transport's reader: no thread start
            Map<String, Object> m = ThreadStarts.measure(200, () -> {
                queue.put("x");
                return queue.take();
            });
            assertThat(Bench.num(m, "virtualPerCall")).isZero();
            assertThat(Bench.num(m, "platformPerCall")).isZero();
            assertThat(Bench.num(m, "platformMxPerCall")).isZero();
            assertThat(Bench.num(m, "calls")).isEqualTo(200);
        } finally {
            echo.interrupt();
            echo.join();
        }
    }

    @Test
    void aVirtualAndAPlatformThreadPerCallAreCountedByName() throws Exception {
        Map<String, Object> m = ThreadStarts.measure(100, () -> {
            Thread.ofVirtual().name("test-v-1").start(() -> { }).join();
            Thread.ofPlatform().name("test-p-2").start(() -> { }).join();
            return null;
        });
        assertThat(Bench.num(m, "virtualPerCall")).isEqualTo(1.0);
        // the virtual-thread scheduler may add a carrier while a platform thread is joined: a pool's occasional
        // start, which the check counts as it would in a client (and names)
        assertThat(Bench.num(m, "platformPerCall")).isBetween(1.0, 1.05);
        assertThat(Bench.num(m, "platformMxPerCall")).isEqualTo(Bench.num(m, "platformPerCall"));
        @SuppressWarnings("unchecked")
        Map<String, Long> started = (Map<String, Long>) m.get("started");
        assertThat(started).containsEntry("virtual test-v-#", 100L).containsEntry("platform test-p-#", 100L);
    }

    @Test
    void aFailingCallEndsTheCheckWithItsException() {
        assertThatThrownBy(() -> ThreadStarts.measure(10, () -> {
            throw new IllegalStateException("echo answered a different text");
        })).isInstanceOf(IllegalStateException.class).hasMessage("echo answered a different text");
    }
}
