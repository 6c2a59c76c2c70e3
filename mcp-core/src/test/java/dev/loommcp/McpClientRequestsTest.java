package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.Prompt;
import dev.loommcp.schema.PromptReference;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceTemplate;
import dev.loommcp.schema.ResourceTemplateReference;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.McpThreadLeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Typed requests (resources, prompts, completion), response correlation, and session-level odds and ends. */
class McpClientRequestsTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> withCursor(Map<String, Object> page, String next) {
        Map<String, Object> m = new LinkedHashMap<>(page);
        if (next != null) {
            m.put("nextCursor", next);
        }
        return m;
    }

    @Test
    void resourcesAreListedAcrossPagesAndRead() throws Exception {
        Map<String, Map<String, Object>> pages = new HashMap<>();
        pages.put(null, withCursor(Map.of("resources", List.of(Map.of("uri", "file:///a", "name", "a"))), "n"));
        pages.put("n", withCursor(Map.of("resources", List.of(Map.of("uri", "file:///b", "name", "b",
                "mimeType", "text/plain"))), null));
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("resources/list", r -> pages.get(r.params() == null ? null : r.params().get("cursor")))
                .on("resources/read", r -> Map.of("contents", List.of(Map.of("uri", r.params().get("uri"),
                        "mimeType", "text/plain", "text", "hello")))), b -> b);

        assertThat(s.client().listAllResources()).extracting(Resource::uri).containsExactly("file:///a", "file:///b");
        assertThat(s.client().listResources("n").resources()).extracting(Resource::name).containsExactly("b");
        ReadResourceResult read = s.client().readResource("file:///b");
        assertThat(read.contents()).containsExactly(TextResourceContents.of("file:///b", "text/plain", "hello"));
        assertThat(s.server().awaitRequest("resources/read").params()).isEqualTo(Map.of("uri", "file:///b"));
    }

    /**
     * The codec keeps a plain response's result as bytes on the transport's reader thread; the session decodes it on
     * the calling thread and hands the caller plain maps (never the codec's lazy holder).
     */
    @Test
    void aResultReachesTheCallerAsPlainMaps() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("x/custom", r -> Map.of("a", Map.of("b", List.of(1,
                Map.of("c", "d"))))), b -> b);
        Map<String, Object> r = s.client().request("x/custom", Map.of(), RequestOptions.DEFAULT);
        assertThat(r).isExactlyInstanceOf(LinkedHashMap.class)
                .isEqualTo(Map.of("a", Map.of("b", List.of(1, Map.of("c", "d")))));
        assertThat(r.get("a")).isExactlyInstanceOf(LinkedHashMap.class);
    }

    @Test
    void resourceTemplatesAreListed() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("resources/templates/list", r -> Map.of(
                "resourceTemplates", List.of(Map.of("uriTemplate", "file:///{path}", "name", "files"))
        )), b -> b);
        assertThat(s.client().listAllResourceTemplates()).extracting(ResourceTemplate::uriTemplate)
                .containsExactly("file:///{path}");
        assertThat(s.client().listResourceTemplates(null).resourceTemplates()).hasSize(1);
    }

    @Test
    void aMissingResourceIsAnRpcException() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("resources/read",
                r -> new JsonRpcError(JsonRpcError.RESOURCE_NOT_FOUND, "Resource not found",
                        Map.of("uri", r.params().get("uri")))), b -> b);
        assertThatThrownBy(() -> s.client().readResource("file:///gone")).isInstanceOf(McpRpcException.class)
                .satisfies(e -> assertThat(((McpRpcException) e).code()).isEqualTo(-32002));
    }

    @Test
    void promptsAreListedAndRenderedWithArguments() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("prompts/list", r -> Map.of("prompts", List.of(Map.of("name", "greet",
                        "arguments", List.of(Map.of("name", "who", "required", true))))))
                .on("prompts/get", r -> Map.of("description", "d", "messages", List.of(Map.of("role", "user",
                        "content", Map.of("type", "text", "text", "Hello " + ((Map<?, ?>) r.params()
                                .getOrDefault("arguments", Map.of())).get("who")))))), b -> b);
        assertThat(s.client().listAllPrompts()).extracting(Prompt::name).containsExactly("greet");
        assertThat(s.client().listPrompts(null).prompts()).hasSize(1);
        GetPromptResult p = s.client().getPrompt("greet", Map.of("who", "Ada"));
        assertThat(p.messages()).hasSize(1);
        assertThat(p.messages().get(0).content()).isEqualTo(TextContent.of("Hello Ada"));
        assertThat(s.server().awaitRequest("prompts/get").params())
                .isEqualTo(Map.of("name", "greet", "arguments", Map.of("who", "Ada")));
        s.client().getPrompt("greet", null);
        assertThat(s.server().awaitRequests("prompts/get", 2).get(1).params()).isEqualTo(Map.of("name", "greet"));
    }

    @Test
    void completionSendsATypedReferenceAndContext() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("completion/complete", r -> Map.of("completion",
                Map.of("values", List.of("Ada", "Adele"), "total", 2, "hasMore", false))), b -> b);
        CompleteResult r = s.client().complete(PromptReference.of("greet"), "who", "Ad", Map.of("lang", "en"));
        assertThat(r.completion().values()).containsExactly("Ada", "Adele");
        assertThat(s.server().awaitRequest("completion/complete").params()).isEqualTo(Map.of(
                "ref", Map.of("type", "ref/prompt", "name", "greet"),
                "argument", Map.of("name", "who", "value", "Ad"),
                "context", Map.of("arguments", Map.of("lang", "en"))));

        s.client().complete(ResourceTemplateReference.of("file:///{path}"), "path", "", null);
        assertThat(s.server().awaitRequests("completion/complete", 2).get(1).params()).isEqualTo(Map.of(
                "ref", Map.of("type", "ref/resource", "uri", "file:///{path}"),
                "argument", Map.of("name", "path", "value", "")));
    }

    // ------------------------------------------------------------------------------------------------ correlation

    @Test
    void aResponseForAnotherIdNeverCompletesTheRequest() throws Exception {
        // a string id equal to the request's ("7" for 7) does complete it: McpClientIdMatchingTest
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("tools/call"), b -> b);
        BackgroundCall<CallToolResult> call = BackgroundCall.start("call", () -> s.client().callTool("t", Map.of()));
        RequestId id = s.server().awaitRequest("tools/call").id();
        assertThat(id).isInstanceOf(RequestId.NumberId.class);

        s.server().deliver(new JsonRpcMessage.Response(RequestId.of(id.value() + "-x"),
                Map.of("content", List.of(Map.of("type", "text", "text", "wrong")))));
        s.server().deliver(new JsonRpcMessage.Response(RequestId.of(99_999),
                Map.of("content", List.of(Map.of("type", "text", "text", "stray")))));
        s.server().deliver(new JsonRpcMessage.ErrorResponse(null, JsonRpcError.of(-32700, "Parse error")));
        s.client().ping(); // inline reader is FIFO: everything above has been routed
        assertThat(call.isDone()).isFalse();

        s.server().reply(id, Map.of("content", List.of(Map.of("type", "text", "text", "right"))));
        assertThat(call.result().text()).isEqualTo("right");
    }

    @Test
    void requestIdsAreIntegersAndIncrease() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        s.client().ping();
        s.client().ping();
        List<JsonRpcMessage.Request> pings = s.server().awaitRequests("ping", 2);
        long init = (Long) s.server().awaitRequest("initialize").id().value();
        assertThat((Long) pings.get(0).id().value()).isGreaterThan(init);
        assertThat((Long) pings.get(1).id().value()).isGreaterThan((Long) pings.get(0).id().value());
    }

    @Test
    void pingSendsNoParams() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        s.client().ping(RequestOptions.ofTimeout(Duration.ofSeconds(5)));
        assertThat(s.server().awaitRequest("ping").params()).isNull();
    }

    @Test
    void aPingErrorIsAnRpcException() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("ping", r -> JsonRpcError.of(-32601, "nope")), b -> b);
        assertThatThrownBy(s.client()::ping).isInstanceOf(McpRpcException.class);
    }

    @Test
    void notifySendsANotification() throws Exception {
        Session s = sessions.connected(Mode.BLOCKING);
        s.client().notify("notifications/x", Map.of("k", 1));
        assertThat(s.server().awaitNotification("notifications/x").params()).isEqualTo(Map.of("k", 1));
    }

    @Test
    void theSessionRestartedListenerIsCalled() throws Exception {
        CountDownLatch restarted = new CountDownLatch(1);
        Session s = sessions.connected(Mode.BLOCKING, t -> { }, b -> b.listener(new Listen().restarts(restarted::countDown)));
        s.server().expireSession();
        s.client().ping(); // refused in the old session: the client starts a new one and sends it again
        assertThat(restarted.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void toStringNamesTheTransportAndState() throws Exception {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        assertThat(s.client()).hasToString("McpClient[scripted-server, new]");
        s.client().connect();
        assertThat(s.client()).hasToString("McpClient[scripted-server, connected]");
        s.client().close();
        assertThat(s.client()).hasToString("McpClient[scripted-server, closed]");
    }

    @Test
    void clientCapabilitiesAreAvailableBeforeConnect() {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b.rootsHandler(List::of));
        assertThat(s.client().clientCapabilities().roots().listChanged()).isTrue();
        assertThat(s.client().clientCapabilities().sampling()).isNull();
        assertThat(s.client().clientCapabilities().elicitation()).isNull();
    }

    @Test
    void aServerRequestRacingWithCloseLeavesNoThread() throws Exception {
        Session[] box = new Session[1];
        Session s = sessions.connected(Mode.INLINE, t -> t.onClose(() -> box[0].server().deliverNow(
                new JsonRpcMessage.Request(RequestId.of("late"), "roots/list", null))), b -> b.rootsHandler(List::of));
        box[0] = s;
        java.util.Set<Long> before = McpThreadLeakCheck.snapshot();
        s.client().close();
        assertThat(McpThreadLeakCheck.liveSince(before, "handler")).isEmpty();
        assertThat(s.server().answersTo(RequestId.of("late"))).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ SendContext

    @Test
    void aRequestSendCarriesItsIdAndDeadline() throws Exception {
        Session s = sessions.connected(Mode.BLOCKING, t -> t.on("x/a", r -> Map.of()), b -> b);
        long before = System.nanoTime();
        s.client().request("x/a", null, RequestOptions.ofTimeout(Duration.ofHours(1)));
        long after = System.nanoTime();
        JsonRpcMessage.Request sent = s.server().awaitRequest("x/a");
        ScriptedTransport.SendRecord rec = s.server().recordOf(m -> m.equals(sent));
        assertThat(rec.requestId()).isEqualTo(sent.id());
        assertThat(rec.deadlineNanos()).isBetween(before + Duration.ofHours(1).toNanos(),
                after + Duration.ofHours(1).toNanos());
        assertThat(s.server().recordOf(m -> m instanceof JsonRpcMessage.Notification).requestId()).isNull();
    }

    @Test
    void aCallWhoseTimeoutResetsOnProgressGivesTheTransportItsHardMaximum() throws Exception {
        Session s = sessions.connected(Mode.BLOCKING, t -> t.on("x/a", r -> Map.of()).on("x/b", r -> Map.of()),
                b -> b);
        long before = System.nanoTime();
        s.client().request("x/a", null, RequestOptions.newBuilder().timeout(Duration.ofSeconds(1))
                .resetTimeoutOnProgress(Duration.ofHours(2)).build());
        s.client().request("x/b", null, RequestOptions.newBuilder().timeout(Duration.ofSeconds(1))
                .resetTimeoutOnProgress(null).build());
        long a = s.server().recordOf(m -> m instanceof JsonRpcMessage.Request r && r.method().equals("x/a"))
                .deadlineNanos();
        long b = s.server().recordOf(m -> m instanceof JsonRpcMessage.Request r && r.method().equals("x/b"))
                .deadlineNanos();
        assertThat(a - before).isGreaterThan(Duration.ofMinutes(119).toNanos());
        assertThat(b).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void answersAndCancellationsCarryTheIdTheyReferTo() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.hold("x/slow"), b -> b);
        RequestId serverId = RequestId.of("srv-7");
        s.server().deliver(new JsonRpcMessage.Request(serverId, "ping", null));
        s.server().awaitAnswerTo(serverId);
        assertThatThrownBy(() -> s.client().request("x/slow", null, RequestOptions.ofTimeout(Duration.ofMillis(50))))
                .isInstanceOf(McpTimeoutException.class);
        RequestId slowId = s.server().awaitRequest("x/slow").id();
        s.server().awaitNotification("notifications/cancelled");

        assertThat(s.server().recordOf(m -> m instanceof JsonRpcMessage.Response r && r.id().equals(serverId))
                .requestId()).isEqualTo(serverId);
        assertThat(s.server().recordOf(m -> m instanceof JsonRpcMessage.Notification n
                && n.method().equals("notifications/cancelled")).requestId()).isEqualTo(slowId);
    }
}
