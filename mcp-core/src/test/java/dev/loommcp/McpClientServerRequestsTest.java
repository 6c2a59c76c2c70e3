package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CreateMessageRequest;
import dev.loommcp.schema.CreateMessageResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.Root;
import dev.loommcp.schema.TextContent;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Requests from the server to the client: ping, roots, elicitation, sampling, errors, and inbound cancellation. */
class McpClientServerRequestsTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private Session connect(Mode mode, UnaryOperator<McpClient.Builder> config) throws InterruptedException {
        return sessions.connected(mode, t -> { }, config);
    }

    private static JsonRpcMessage.Response resultOf(JsonRpcMessage answer) {
        assertThat(answer).isInstanceOf(JsonRpcMessage.Response.class);
        return (JsonRpcMessage.Response) answer;
    }

    private static JsonRpcError errorOf(JsonRpcMessage answer) {
        assertThat(answer).isInstanceOf(JsonRpcMessage.ErrorResponse.class);
        return ((JsonRpcMessage.ErrorResponse) answer).error();
    }

    private static JsonRpcMessage ask(Session s, RequestId id, String method, Map<String, Object> params) {
        s.server().deliver(new JsonRpcMessage.Request(id, method, params));
        return s.server().awaitAnswerTo(id);
    }

    // ------------------------------------------------------------------------------------------------ ping

    @ParameterizedTest
    @EnumSource(Mode.class)
    void pingIsAlwaysAnsweredWithTheSameIdKind(Mode mode) throws Exception {
        Session s = connect(mode, b -> b);
        assertThat(resultOf(ask(s, RequestId.of("srv-ping"), "ping", null)).result()).isEqualTo(Map.of());
        assertThat(resultOf(ask(s, RequestId.of(7), "ping", null)).result()).isEqualTo(Map.of());
        assertThat(s.server().answersTo(RequestId.of("7"))).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ roots

    @ParameterizedTest
    @EnumSource(Mode.class)
    void rootsListGoesToTheHandler(Mode mode) throws Exception {
        AtomicReference<String> handlerThread = new AtomicReference<>();
        Session s = connect(mode, b -> b.rootsHandler(() -> {
            handlerThread.set(Thread.currentThread().getName());
            return List.of(Root.of("file:///work", "work"), new Root("file:///tmp", null, Map.of("k", 1)));
        }));
        JsonRpcMessage answer = ask(s, RequestId.of(1), "roots/list", null);
        assertThat(resultOf(answer).result()).isEqualTo(Map.of("roots", List.of(
                Map.of("uri", "file:///work", "name", "work"),
                Map.of("uri", "file:///tmp", "_meta", Map.of("k", 1)))));
        assertThat(handlerThread.get()).startsWith("mcp-handler-");
    }

    @Test
    void aNullRootListIsAnsweredEmpty() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(() -> null));
        assertThat(resultOf(ask(s, RequestId.of(1), "roots/list", null)).result())
                .isEqualTo(Map.of("roots", List.of()));
    }

    @Test
    void notifyRootsListChangedSendsTheNotification() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(List::of));
        s.client().notifyRootsListChanged();
        assertThat(s.server().awaitNotification("notifications/roots/list_changed").params()).isNull();
    }

    // ------------------------------------------------------------------------------------------------ elicitation

    @ParameterizedTest
    @EnumSource(Mode.class)
    void formElicitationGoesToTheHandlerAndAMissingModeMeansForm(Mode mode) throws Exception {
        AtomicReference<ElicitRequest> seen = new AtomicReference<>();
        Session s = connect(mode, b -> b.elicitationHandler(r -> {
            seen.set(r);
            return ElicitResult.accept(Map.of("name", "Ada", "age", 36));
        }));
        Map<String, Object> schema = Map.of("type", "object", "properties",
                Map.of("name", Map.of("type", "string"), "age", Map.of("type", "integer")));
        JsonRpcMessage answer = ask(s, RequestId.of("e1"), "elicitation/create",
                Map.of("message", "Who are you?", "requestedSchema", schema));

        assertThat(resultOf(answer).result()).isEqualTo(Map.of("action", "accept",
                "content", Map.of("name", "Ada", "age", 36)));
        assertThat(seen.get().mode()).isNull();
        assertThat(seen.get().isUrlMode()).isFalse();
        assertThat(seen.get().message()).isEqualTo("Who are you?");
        assertThat(seen.get().requestedSchema()).isEqualTo(schema);
    }

    @Test
    void explicitFormModeWorksToo() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> ElicitResult.cancel()));
        assertThat(resultOf(ask(s, RequestId.of(1), "elicitation/create", Map.of("mode", "form", "message", "m",
                "requestedSchema", Map.of("type", "object")))).result()).isEqualTo(Map.of("action", "cancel"));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void urlElicitationGoesToTheHandler(Mode mode) throws Exception {
        AtomicReference<ElicitRequest> seen = new AtomicReference<>();
        Session s = connect(mode, b -> b.elicitationHandler(r -> {
            seen.set(r);
            return ElicitResult.accept(null);
        }));
        JsonRpcMessage answer = ask(s, RequestId.of(2), "elicitation/create", Map.of("mode", "url",
                "message", "Please sign in", "url", "https://example.test/auth?x=1", "elicitationId", "el-9"));
        assertThat(resultOf(answer).result()).isEqualTo(Map.of("action", "accept"));
        assertThat(seen.get().isUrlMode()).isTrue();
        assertThat(seen.get().url()).isEqualTo("https://example.test/auth?x=1");
        assertThat(seen.get().elicitationId()).isEqualTo("el-9");
    }

    @Test
    void urlElicitationIsRefusedWhenOnlyFormModeWasDeclared() throws Exception {
        AtomicBoolean called = new AtomicBoolean();
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> {
            called.set(true);
            return ElicitResult.decline();
        }, false));
        JsonRpcError e = errorOf(ask(s, RequestId.of(3), "elicitation/create", Map.of("mode", "url",
                "message", "m", "url", "https://example.test", "elicitationId", "x")));
        assertThat(e.code()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(called).isFalse();
    }

    @Test
    void aNullElicitationResultIsADecline() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> null));
        assertThat(resultOf(ask(s, RequestId.of(4), "elicitation/create", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object")))).result()).isEqualTo(Map.of("action", "decline"));
    }

    private static final Map<String, Object> SCHEMA_WITH_DEFAULTS = Map.of("type", "object", "properties", Map.of(
            "name", Map.of("type", "string"),
            "color", Map.of("type", "string", "default", "blue"),
            "count", Map.of("type", "integer", "default", 3),
            "tags", Map.of("type", "array", "default", List.of("a"))));

    @Test
    void schemaDefaultsAreFilledInWhenAsked() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.applyElicitationDefaults(true)
                .elicitationHandler(r -> ElicitResult.accept(Map.of("name", "Ada", "count", 7))));
        assertThat(resultOf(ask(s, RequestId.of(5), "elicitation/create", Map.of("message", "m",
                "requestedSchema", SCHEMA_WITH_DEFAULTS))).result()).isEqualTo(Map.of("action", "accept",
                "content", Map.of("name", "Ada", "count", 7, "color", "blue", "tags", List.of("a"))));
    }

    @Test
    void schemaDefaultsAreNotFilledInByDefault() throws Exception {
        Session s = connect(Mode.INLINE, b -> b
                .elicitationHandler(r -> ElicitResult.accept(Map.of("name", "Ada"))));
        assertThat(resultOf(ask(s, RequestId.of(5), "elicitation/create", Map.of("message", "m",
                "requestedSchema", SCHEMA_WITH_DEFAULTS))).result()).isEqualTo(Map.of("action", "accept",
                "content", Map.of("name", "Ada")));
    }

    @Test
    void schemaDefaultsAreNotAppliedToADecline() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.applyElicitationDefaults(true)
                .elicitationHandler(r -> ElicitResult.decline()));
        assertThat(resultOf(ask(s, RequestId.of(5), "elicitation/create", Map.of("message", "m",
                "requestedSchema", SCHEMA_WITH_DEFAULTS))).result()).isEqualTo(Map.of("action", "decline"));
    }

    // ------------------------------------------------------------------------------------------------ sampling

    @ParameterizedTest
    @EnumSource(Mode.class)
    void samplingGoesToTheHandler(Mode mode) throws Exception {
        AtomicReference<CreateMessageRequest> seen = new AtomicReference<>();
        Session s = connect(mode, b -> b.samplingHandler(r -> {
            seen.set(r);
            return CreateMessageResult.ofText("model-x", "Paris");
        }));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("messages", List.of(Map.of("role", "user", "content", Map.of("type", "text",
                "text", "Capital of France?"))));
        params.put("maxTokens", 50);
        params.put("systemPrompt", "be brief");
        JsonRpcMessage answer = ask(s, RequestId.of("smp"), "sampling/createMessage", params);

        assertThat(resultOf(answer).result()).isEqualTo(Map.of("role", "assistant", "model", "model-x",
                "content", Map.of("type", "text", "text", "Paris")));
        assertThat(seen.get().maxTokens()).isEqualTo(50);
        assertThat(seen.get().systemPrompt()).isEqualTo("be brief");
        assertThat(seen.get().messages()).hasSize(1);
        assertThat(seen.get().messages().get(0).role()).isEqualTo("user");
        assertThat(seen.get().messages().get(0).contentBlocks()).containsExactly(TextContent.of("Capital of France?"));
    }

    @Test
    void samplingWithoutParamsIsInvalidParamsAndTheHandlerIsNotCalled() throws Exception {
        AtomicBoolean calledWithNull = new AtomicBoolean();
        Session s = connect(Mode.INLINE, b -> b.samplingHandler(r -> {
            if (r == null) {
                calledWithNull.set(true);
            }
            return CreateMessageResult.ofText("m", "t");
        }));
        assertThat(errorOf(ask(s, RequestId.of(1), "sampling/createMessage", null)).code())
                .isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(calledWithNull).isFalse();
    }

    @Test
    void elicitationWithoutParamsIsInvalidParams() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> ElicitResult.decline()));
        assertThat(errorOf(ask(s, RequestId.of(1), "elicitation/create", null)).code())
                .isEqualTo(JsonRpcError.INVALID_PARAMS);
    }

    @Test
    void malformedSamplingParamsAreInvalidParams() throws Exception {
        AtomicBoolean called = new AtomicBoolean();
        Session s = connect(Mode.INLINE, b -> b.samplingHandler(r -> {
            called.set(true);
            return CreateMessageResult.ofText("m", "t");
        }));
        JsonRpcError e = errorOf(ask(s, RequestId.of(1), "sampling/createMessage",
                Map.of("messages", "not a list", "maxTokens", 5)));
        assertThat(e.code()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(called).isFalse();
    }

    // ------------------------------------------------------------------------------------------------ errors

    @ParameterizedTest
    @ValueSource(strings = {"roots/list", "sampling/createMessage", "elicitation/create", "x/unknown",
            "tasks/list"})
    void withoutAHandlerTheAnswerIsMethodNotFound(String method) throws Exception {
        Session s = connect(Mode.INLINE, b -> b);
        JsonRpcError e = errorOf(ask(s, RequestId.of(11), method, Map.of()));
        assertThat(e.code()).isEqualTo(JsonRpcError.METHOD_NOT_FOUND);
        assertThat(e.message()).contains(method);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aHandlerExceptionIsAnInternalErrorThatDoesNotLeakItsMessage(Mode mode) throws Exception {
        Session s = connect(mode, b -> b.rootsHandler(() -> {
            throw new IllegalStateException("s3cr3t path /home/me/.key");
        }));
        JsonRpcError e = errorOf(ask(s, RequestId.of(12), "roots/list", null));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(e.message()).contains("roots/list").doesNotContain("s3cr3t");
        s.client().ping();
    }

    @Test
    void aCheckedHandlerExceptionIsAnInternalErrorToo() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.samplingHandler(r -> {
            throw new java.io.IOException("model offline");
        }));
        JsonRpcError e = errorOf(ask(s, RequestId.of(13), "sampling/createMessage", Map.of("messages", List.of(),
                "maxTokens", 1)));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
    }

    // ------------------------------------------------------------------------------------------------ checks shared
    // with the 2026 era's input rounds (ClientHandlers): the same requests and answers are refused the same way

    @Test
    void aSamplingHandlerThatReturnsNothingIsAnInternalErrorNotMethodNotFound() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.samplingHandler(r -> null));
        JsonRpcError e = errorOf(ask(s, RequestId.of(20), "sampling/createMessage", Map.of("messages", List.of(),
                "maxTokens", 1)));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(e.message()).contains("sampling/createMessage").contains("returned no result");
    }

    @Test
    void anElicitationActionOutsideTheSchemaIsNotSent() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> new ElicitResult("maybe", null, null)));
        JsonRpcError e = errorOf(ask(s, RequestId.of(21), "elicitation/create", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object"))));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(e.message()).contains("not accept, decline or cancel").doesNotContain("maybe");
    }

    @Test
    void formContentThatIsNotFlatIsNotSent() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> ElicitResult.accept(Map.of("address",
                Map.of("street", "secret lane 1")))));
        JsonRpcError e = errorOf(ask(s, RequestId.of(22), "elicitation/create", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object"))));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(e.message()).contains("'address'").doesNotContain("secret");
    }

    /** Issue 26 item 15: a handler's answer holding an object that is not JSON is refused, never bean-serialised. */
    @Test
    void aHandlerAnswerHoldingSomethingThatIsNotJsonIsNotSent() throws Exception {
        Session s = connect(Mode.INLINE, b -> b
                .elicitationHandler(r -> new ElicitResult(ElicitResult.ACCEPT, Map.of("n", 1),
                        Map.of("trace", new Thread(() -> { }))))
                .samplingHandler(r -> new CreateMessageResult("assistant", TextContent.of("hi"), "m", null,
                        Map.of("raw", new byte[] {1}))));
        JsonRpcError e = errorOf(ask(s, RequestId.of(27), "elicitation/create", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object"))));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(e.message()).contains("_meta.trace: java.lang.Thread is not a JSON value");
        JsonRpcError sampled = errorOf(ask(s, RequestId.of(28), "sampling/createMessage", Map.of("messages",
                List.of(), "maxTokens", 1)));
        assertThat(sampled.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(sampled.message()).contains("_meta.raw: byte[] is not a JSON value");
    }

    @Test
    void contentIsSentOnlyWithAnAcceptedForm() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> r.isUrlMode()
                ? ElicitResult.accept(Map.of("typed", "into the wrong dialog"))
                : new ElicitResult(ElicitResult.DECLINE, Map.of("half", "typed"), null)));
        assertThat(resultOf(ask(s, RequestId.of(23), "elicitation/create", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object")))).result()).isEqualTo(Map.of("action", "decline"));
        assertThat(resultOf(ask(s, RequestId.of(24), "elicitation/create", Map.of("mode", "url", "message", "m",
                "url", "https://example.test/x", "elicitationId", "e"))).result())
                .isEqualTo(Map.of("action", "accept"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "relative/path", "http://bad host/"})
    void aUrlElicitationWithoutAnAbsoluteUrlIsInvalidParamsAndTheHandlerIsNotCalled(String url) throws Exception {
        AtomicBoolean called = new AtomicBoolean();
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> {
            called.set(true);
            return ElicitResult.decline();
        }));
        assertThat(errorOf(ask(s, RequestId.of(25), "elicitation/create", Map.of("mode", "url", "message", "m",
                "url", url, "elicitationId", "e"))).code()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(errorOf(ask(s, RequestId.of(26), "elicitation/create", Map.of("mode", "url", "message", "m",
                "elicitationId", "e"))).message()).contains("without a url");
        assertThat(called).isFalse();
    }

    @Test
    void anUnknownElicitationModeIsInvalidParamsNotAForm() throws Exception {
        AtomicBoolean called = new AtomicBoolean();
        Session s = connect(Mode.INLINE, b -> b.elicitationHandler(r -> {
            called.set(true);
            return ElicitResult.decline();
        }));
        JsonRpcError e = errorOf(ask(s, RequestId.of(27), "elicitation/create", Map.of("mode", "telepathy",
                "message", "m")));
        assertThat(e.code()).isEqualTo(JsonRpcError.INVALID_PARAMS);
        assertThat(e.message()).contains("unknown mode");
        assertThat(called).isFalse();
    }

    @Test
    void aRootsListWithANullEntryIsNotSent() throws Exception {
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(() -> java.util.Arrays.asList(Root.of("file:///a", null),
                null)));
        JsonRpcError e = errorOf(ask(s, RequestId.of(28), "roots/list", null));
        assertThat(e.code()).isEqualTo(JsonRpcError.INTERNAL_ERROR);
        assertThat(e.message()).contains("roots/list").contains("null");
    }

    // ------------------------------------------------------------------------------------------------ cancellation

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anInboundCancelledInterruptsTheRunningHandlerAndNoAnswerIsSent(Mode mode) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        Session s = connect(mode, b -> b.keepNotifications(true).samplingHandler(r -> {
            handlerThread.set(Thread.currentThread());
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return CreateMessageResult.ofText("m", "never");
        }));
        RequestId id = RequestId.of("slow-sample");
        s.server().deliver(new JsonRpcMessage.Request(id, "sampling/createMessage",
                Map.of("messages", List.of(), "maxTokens", 1)));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        s.server().notifyClient("notifications/cancelled", Map.of("requestId", "slow-sample", "reason", "user"));

        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        Await.ended("the handler thread", handlerThread.get());
        assertThat(s.server().answersTo(id)).isEmpty();
        assertThat(s.client().drainNotifications()).isEmpty();
        s.client().ping();
        assertThat(resultOf(ask(s, RequestId.of("after"), "ping", null)).result()).isEqualTo(Map.of());
    }

    @Test
    void aHandlerThatIgnoresTheInterruptStillSendsNoAnswer() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch sawInterrupt = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(() -> {
            handlerThread.set(Thread.currentThread());
            started.countDown();
            while (true) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    sawInterrupt.countDown();
                }
            }
            return List.of(Root.of("file:///x", "x"));
        }));
        RequestId id = RequestId.of(77);
        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        s.server().notifyClient("notifications/cancelled", Map.of("requestId", 77));
        assertThat(sawInterrupt.await(10, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        Await.ended("the handler thread", handlerThread.get());
        assertThat(s.server().answersTo(id)).isEmpty();
    }

    @Test
    void aCancelledForAnotherRequestLeavesTheHandlerAlone() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(() -> {
            started.countDown();
            release.await();
            return List.of();
        }));
        RequestId id = RequestId.of(5);
        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        s.server().notifyClient("notifications/cancelled", Map.of("requestId", "5"));
        s.server().notifyClient("notifications/cancelled", Map.of("requestId", 6));
        release.countDown();
        assertThat(resultOf(s.server().awaitAnswerTo(id)).result()).isEqualTo(Map.of("roots", List.of()));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSlowHandlerBlocksNeitherTheReaderNorOtherCalls(Mode mode) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of("content", List.of())), b -> b
                .rootsHandler(() -> {
                    started.countDown();
                    release.await();
                    return List.of();
                }));
        RequestId slow = RequestId.of("slow");
        s.server().deliver(new JsonRpcMessage.Request(slow, "roots/list", null));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(resultOf(ask(s, RequestId.of("p"), "ping", null)).result()).isEqualTo(Map.of());
        s.client().callTool("t", Map.of());
        s.client().ping();

        release.countDown();
        assertThat(resultOf(s.server().awaitAnswerTo(slow)).result()).isEqualTo(Map.of("roots", List.of()));
    }

    @Test
    void handlersRunConcurrently() throws Exception {
        int n = 5;
        CountDownLatch allIn = new CountDownLatch(n);
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(() -> {
            allIn.countDown();
            allIn.await();
            return List.of();
        }));
        for (int i = 0; i < n; i++) {
            s.server().deliver(new JsonRpcMessage.Request(RequestId.of(100 + i), "roots/list", null));
        }
        for (int i = 0; i < n; i++) {
            resultOf(s.server().awaitAnswerTo(RequestId.of(100 + i)));
        }
    }

    @Test
    void closeInterruptsRunningHandlersAndSendsNoAnswer() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        Session s = connect(Mode.INLINE, b -> b.rootsHandler(() -> {
            handlerThread.set(Thread.currentThread());
            started.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return List.of();
        }));
        RequestId id = RequestId.of(9);
        s.server().deliver(new JsonRpcMessage.Request(id, "roots/list", null));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        s.client().close();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(handlerThread.get().isAlive()).as("close() waited for the handler").isFalse();
        assertThat(s.server().answersTo(id)).isEmpty();
        assertThat(s.server().rejectedSends()).isEmpty();
    }

    /** HTTP-like: a server request that arrives on a request's response stream is handled like any other. */
    @Test
    void serverRequestsOnARequestStreamAreHandledToo() throws Exception {
        Session s = sessions.connected(Mode.BLOCKING, t -> t.on("tools/call", r -> {
            t.deliverOn(r.id(), new JsonRpcMessage.Request(RequestId.of("nested"), "ping", null));
            return Map.of("content", List.of());
        }), b -> b);
        s.client().callTool("t", Map.of());
        assertThat(resultOf(s.server().awaitAnswerTo(RequestId.of("nested"))).result()).isEqualTo(Map.of());
        assertThat(s.server().mode()).isEqualTo(ScriptedTransport.Mode.BLOCKING);
    }
}
