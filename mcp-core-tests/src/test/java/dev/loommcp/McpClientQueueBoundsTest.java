package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client's queues are bounded in bytes as well as in count, drop the oldest and count what they drop; the drain
 * queue holds nothing unless asked (issue 8, item 7).
 */
class McpClientQueueBoundsTest {

    /** About 200 KB as JSON text: five fit in 1 MiB, six do not. */
    private static final String BIG = "x".repeat(200_000);
    private static final long ONE_MIB = 1L << 20;

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> big(int i) {
        return Map.of("i", i, "data", BIG);
    }

    /** Holds a listener (and so its thread) until the test releases it. */
    private static void awaitQuietly(CountDownLatch release) {
        try {
            release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int indexOf(JsonRpcMessage.Notification n) {
        return ((Number) n.params().get("i")).intValue();
    }

    @Test
    void nothingIsKeptForDrainingUnlessAsked() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        for (int i = 0; i < 50; i++) {
            s.server().notifyClient("x/big", big(i));
        }
        s.client().ping(); // inline reader is FIFO: every notification above was handled
        assertThat(s.client().drainNotifications()).isEmpty();
        assertThat(s.client().droppedNotificationCount()).isZero();
    }

    @Test
    void theDrainQueueKeepsTheNewestWithinItsByteBudgetAndCountsTheRest() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.keepNotifications(true)
                .notificationQueueBytes(ONE_MIB));
        for (int i = 0; i < 50; i++) {
            s.server().notifyClient("x/big", big(i));
        }
        s.client().ping();
        List<JsonRpcMessage.Notification> kept = s.client().drainNotifications();
        assertThat(kept).extracting(McpClientQueueBoundsTest::indexOf).containsExactly(45, 46, 47, 48, 49);
        assertThat(s.client().droppedNotificationCount()).isEqualTo(45);
    }

    @Test
    void theDefaultDrainBudgetBoundsBigNotifications() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.keepNotifications(true));
        for (int i = 0; i < 100; i++) { // 20 MB: more than the default 16 MiB, fewer than the 1024 entries
            s.server().notifyClient("x/big", big(i));
        }
        s.client().ping();
        List<JsonRpcMessage.Notification> kept = s.client().drainNotifications();
        assertThat(kept).hasSizeBetween(70, 90);
        assertThat(indexOf(kept.get(kept.size() - 1))).isEqualTo(99);
        assertThat(s.client().droppedNotificationCount()).isEqualTo(100 - kept.size());
    }

    @Test
    void theListenerQueueKeepsTheNewestWithinItsByteBudgetAndCountsTheRest() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch marker = new CountDownLatch(1);
        List<JsonRpcMessage.Notification> seen = new CopyOnWriteArrayList<>();
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.listenerQueueBytes(ONE_MIB)
                .listener(new Listen().notifications(n -> {
                    seen.add(n);
                    if (n.method().equals("x/marker")) {
                        marker.countDown();
                        return;
                    }
                    busy.countDown();
                    awaitQuietly(release);
                })));
        s.server().notifyClient("x/big", big(0));
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue(); // the listener holds the event thread
        for (int i = 1; i < 50; i++) {
            s.server().notifyClient("x/big", big(i));
        }
        s.server().notifyClient("x/marker", null);
        s.client().ping(); // everything above is queued for the listener
        release.countDown();
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(seen.subList(0, seen.size() - 1)).extracting(McpClientQueueBoundsTest::indexOf)
                .containsExactly(0, 45, 46, 47, 48, 49);
        assertThat(s.client().droppedEventCount()).isEqualTo(44);
    }

    @Test
    void theListenerQueueHasACountBoundToo() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch last = new CountDownLatch(1);
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.listenerQueueCapacity(3)
                .listener(new Listen().notifications(n -> {
                    int i = indexOf(n);
                    seen.add(i);
                    busy.countDown();
                    if (i == 0) {
                        awaitQuietly(release);
                    }
                    if (i == 9) {
                        last.countDown();
                    }
                })));
        s.server().notifyClient("x/n", Map.of("i", 0));
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i < 10; i++) {
            s.server().notifyClient("x/n", Map.of("i", i));
        }
        s.client().ping();
        release.countDown();
        assertThat(last.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).containsExactly(0, 7, 8, 9);
        assertThat(s.client().droppedEventCount()).isEqualTo(6);
    }

    @Test
    void aCallsProgressQueueIsBoundedInBytes() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> {
            @SuppressWarnings("unchecked")
            Object token = ((Map<String, Object>) r.params().get("_meta")).get("progressToken");
            for (int i = 0; i < 50; i++) {
                t.deliverOn(r.id(), new JsonRpcMessage.Notification("notifications/progress",
                        Map.of("progressToken", token, "progress", i, "message", BIG)));
            }
            return Map.of("content", List.of());
        }), b -> b.listenerQueueBytes(ONE_MIB));
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Double> seen = new CopyOnWriteArrayList<>();
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of(),
                RequestOptions.newBuilder().progressListener(p -> {
                    seen.add(p.progress());
                    busy.countDown();
                    awaitQuietly(release); // only the first one waits: the latch is open afterwards
                }).build()));
        assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
        s.client().ping(); // inline reader is FIFO: the whole burst and the response were handed over
        release.countDown();
        assertThat(call.result().content()).isEmpty();
        // the caller may have taken one early notification before the burst was in (then it held the caller);
        // the others were dropped oldest first down to the five newest that fit in the budget
        assertThat(seen).hasSizeBetween(5, 6).endsWith(45.0, 46.0, 47.0, 48.0, 49.0);
        assertThat(s.client().droppedEventCount()).isEqualTo(50 - seen.size());
    }
}
