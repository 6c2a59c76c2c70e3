package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.LogCapture;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How ids and progress tokens the server sends are matched with the client's requests: exactly (integers and strings
 * only, never narrowed), except that an answer whose id equals one pending request's id as a string or a non-integer
 * number ({@code "7"}, {@code 7.0}) is matched to it with one WARNING per connection (issue 8, items 9 and 10).
 */
class McpClientIdMatchingTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> text(String t) {
        return Map.of("content", List.of(Map.of("type", "text", "text", t)));
    }

    private static long held(Session s) {
        return (Long) s.server().awaitRequest("tools/call").id().value();
    }

    // ------------------------------------------------------------------------------------------------ item 10

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anAnswerWithTheIdAsAStringCompletesTheCall(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of()));
        long id = held(s);
        s.server().deliverJson("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"result\":{\"content\":[{\"type\":\"text\","
                + "\"text\":\"string id\"}]}}");
        assertThat(call.result().text()).isEqualTo("string id");
        s.client().ping();
    }

    @ParameterizedTest
    @ValueSource(strings = {"%d.0", "%d.000", "%de0", "\"%d.0\""})
    void anAnswerWithTheIdAsAnIntegralNumberCompletesTheCall(String idFormat) throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of()));
        long id = held(s);
        s.server().deliverJson("{\"jsonrpc\":\"2.0\",\"id\":" + idFormat.formatted(id) + ",\"result\":{\"content\":"
                + "[{\"type\":\"text\",\"text\":\"float id\"}]}}");
        assertThat(call.result().text()).isEqualTo("float id");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anErrorWithTheIdAsAStringFailsTheCall(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of()));
        long id = held(s);
        s.server().deliverJson("{\"jsonrpc\":\"2.0\",\"id\":" + id + ".0,\"error\":{\"code\":-32602,"
                + "\"message\":\"bad\"}}");
        assertThat(call.failure()).isInstanceOf(McpRpcException.class)
                .satisfies(e -> assertThat(((McpRpcException) e).code()).isEqualTo(-32602));
    }

    @Test
    void anAnswerWhoseIdEqualsNoPendingRequestIsDropped() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of()));
        long id = held(s);
        String wrong = "{\"content\":[{\"type\":\"text\",\"text\":\"wrong\"}]}";
        for (String other : List.of(id + ".5", "\"" + id + ".5\"", "\"" + id + "x\"", "\" " + id + "\"",
                "\"0" + id + "\"", BigInteger.TWO.pow(64).add(BigInteger.valueOf(id)).toString(),
                "\"" + BigInteger.TWO.pow(64).add(BigInteger.valueOf(id)) + "\"", "\"99999\"", "99999.0", "1e999999999")) {
            s.server().deliverJson("{\"jsonrpc\":\"2.0\",\"id\":" + other + ",\"result\":" + wrong + "}");
        }
        s.client().ping(); // inline reader is FIFO: everything above has been routed
        assertThat(call.isDone()).isFalse();
        s.server().reply(RequestId.of(id), text("right"));
        assertThat(call.result().text()).isEqualTo("right");
    }

    @Test
    void looseIdsAreReportedOncePerConnection() throws Exception {
        try (LogCapture log = LogCapture.warnings("dev.loommcp.client")) {
            Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
            for (int i = 0; i < 3; i++) {
                BackgroundCall<CallToolResult> call = BackgroundCall.start("call",
                        () -> s.client().callTool("t", Map.of()));
                long id = (Long) s.server().awaitRequests("tools/call", i + 1).get(i).id().value();
                s.server().deliverJson("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"result\":{\"content\":[]}}");
                call.result();
            }
            assertThat(log.messages()).filteredOn(m -> m.contains("answered request")).hasSize(1);

            Session other = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
            BackgroundCall<CallToolResult> call = BackgroundCall.start("call",
                    () -> other.client().callTool("t", Map.of()));
            long id = held(other);
            other.server().deliverJson("{\"jsonrpc\":\"2.0\",\"id\":" + id + ".0,\"result\":{\"content\":[]}}");
            call.result();
            assertThat(log.messages()).filteredOn(m -> m.contains("answered request")).hasSize(2);
        }
    }

    // ------------------------------------------------------------------------------------------------ item 9

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aProgressTokenMatchesOnlyExactly(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.hold("tools/call"), b -> b);
        List<ProgressNotification> progress = new CopyOnWriteArrayList<>();
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of(),
                RequestOptions.newBuilder().progressListener(progress::add).build()));
        JsonRpcMessage.Request request = s.server().awaitRequest("tools/call");
        long id = (Long) request.id().value();
        @SuppressWarnings("unchecked")
        Object token = ((Map<String, Object>) request.params().get("_meta")).get("progressToken");
        assertThat(token).isEqualTo((int) id);

        for (Object bad : List.<Object>of(id + 0.9, (double) id, BigInteger.TWO.pow(64).add(BigInteger.valueOf(id)),
                String.valueOf(id))) {
            s.server().deliverOn(request.id(), new JsonRpcMessage.Notification("notifications/progress",
                    Map.of("progressToken", bad, "progress", 1)));
        }
        s.server().deliverOn(request.id(), new JsonRpcMessage.Notification("notifications/progress",
                Map.of("progressToken", id, "progress", 2)));
        s.server().reply(request.id(), text("done"));
        assertThat(call.result().text()).isEqualTo("done");
        Await.until("the exact progress notification", () -> progress.stream().anyMatch(p -> p.progress() == 2.0));
        assertThat(progress).extracting(ProgressNotification::progress).containsExactly(2.0);
    }

    @Test
    void aCancelledRequestIdMatchesOnlyExactly() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.rootsHandler(() -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return List.of();
        }));
        RequestId id = RequestId.of(2);
        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        for (Object bad : List.<Object>of(2.9, 2.0, BigInteger.TWO.pow(64).add(BigInteger.TWO), "2")) {
            s.server().notifyClient("notifications/cancelled", Map.of("requestId", bad));
        }
        s.client().ping(); // inline reader is FIFO: every cancellation above has been handled
        assertThat(interrupted.getCount()).isEqualTo(1);
        release.countDown();
        assertThat(s.server().awaitAnswerTo(id)).isInstanceOf(JsonRpcMessage.Response.class);
    }

    @Test
    void anExactCancelledRequestIdStillInterruptsTheHandler() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Session s = sessions.connected(Mode.INLINE, t -> { }, b -> b.rootsHandler(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return List.of();
        }));
        s.server().deliver(new JsonRpcMessage.Request(RequestId.of(2), "roots/list", null));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        s.server().notifyClient("notifications/cancelled", Map.of("requestId", 2));
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }
}
