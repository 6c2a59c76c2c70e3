package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Progress the server sent before its response reaches the call's listener before the call returns, and none after
 * (issue 8, item 11). The fake server sends the progress notifications and the response in one burst; the listener is
 * slow, so a client that hands progress to another thread returns first.
 */
class McpClientProgressOrderTest {

    private static final int ROUNDS = 30;
    private static final int NOTIFICATIONS = 12;

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Object tokenOf(JsonRpcMessage.Request r) {
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) r.params().get("_meta");
        return meta.get("progressToken");
    }

    private static JsonRpcMessage.Notification progress(Object token, int i) {
        return new JsonRpcMessage.Notification("notifications/progress", Map.of("progressToken", token,
                "progress", i));
    }

    private static Map<String, Object> text(String t) {
        return Map.of("content", List.of(Map.of("type", "text", "text", t)));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void everyProgressSentBeforeTheResponseIsDeliveredBeforeTheCallReturns(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> {
            for (int i = 1; i <= NOTIFICATIONS; i++) {
                t.deliverOn(r.id(), progress(tokenOf(r), i));
            }
            return text("done");
        }), b -> b);
        for (int round = 0; round < ROUNDS; round++) {
            AtomicBoolean returned = new AtomicBoolean();
            List<Double> seen = new CopyOnWriteArrayList<>();
            List<Double> lateCalls = new CopyOnWriteArrayList<>();
            CallToolResult r = s.client().callTool("t", Map.of(), RequestOptions.newBuilder()
                    .progressListener(p -> {
                        if (returned.get()) {
                            lateCalls.add(p.progress());
                        }
                        slowly();
                        seen.add(p.progress());
                    }).build());
            returned.set(true);
            List<Double> atReturn = new ArrayList<>(seen);
            assertThat(r.text()).isEqualTo("done");
            s.client().ping(); // anything still queued for the listener would have had its chance
            assertThat(atReturn).as("round %d: progress delivered before the call returned", round)
                    .hasSize(NOTIFICATIONS).isSorted();
            assertThat(lateCalls).as("round %d: listener calls after the return", round).isEmpty();
            assertThat(seen).hasSize(NOTIFICATIONS);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void progressSentAfterTheResponseNeverReachesTheListener(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        List<ProgressNotification> seen = new CopyOnWriteArrayList<>();
        CountDownLatch first = new CountDownLatch(1);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of(),
                RequestOptions.newBuilder().progressListener(p -> {
                    seen.add(p);
                    first.countDown();
                }).build()));
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
        RequestId id = request.id();
        s.server().deliverOn(id, progress(tokenOf(request), 1));
        assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
        s.server().reply(id, text("done"));
        s.server().deliverOn(id, progress(tokenOf(request), 2)); // after the response on the same stream
        assertThat(call.result().text()).isEqualTo("done");
        s.client().ping();
        assertThat(seen).extracting(ProgressNotification::progress).containsExactly(1.0);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aListenerThatThrowsAnErrorFailsNeitherTheCallNorLaterProgress(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> {
            t.deliverOn(r.id(), progress(tokenOf(r), 1));
            t.deliverOn(r.id(), progress(tokenOf(r), 2));
            return text("done");
        }), b -> b);
        List<Double> seen = new CopyOnWriteArrayList<>();
        CallToolResult r = s.client().callTool("t", Map.of(), RequestOptions.newBuilder().progressListener(p -> {
            seen.add(p.progress());
            throw new AssertionError("listener bug");
        }).build());
        assertThat(r.text()).isEqualTo("done");
        assertThat(seen).containsExactly(1.0, 2.0);
    }

    /** A slow listener: long enough for a reader on another thread to hand over the response meanwhile. */
    private static void slowly() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
