package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskServer;
import dev.loommcp.spi.TaskSupport;
import dev.loommcp.spi.ToolCallAnswer;
import dev.loommcp.testing.Await;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import dev.loommcp.config.Era;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.event.Subscription;

/**
 * The core's side of tasks (MODERN-ERA.md C.5, C.6) against the scripted server, with a recording {@link TaskSupport}
 * in place of the {@code mcp-tasks} driver: the extension's declaration, the two hooks of a {@code tools/call} (the
 * augmentation the support asks for is sent as given; an answer that is not final is handed over unread, in both
 * eras), the {@code resultType} rules, the tool catalog's {@code execution.taskSupport}, the channel's input
 * answering, task listens, notification listeners, threads and close. The task rules themselves (when to augment,
 * the task shapes, {@code -32602} on {@code tasks/*}, the task exceptions) are {@code mcp-tasks}'s and tested there.
 * {@link Sessions} checks after each test that nothing is left pending or running.
 */
class McpClientTasksTest {

    static final String EXT = TaskChannel.EXTENSION;
    static final String V = ProtocolMode.MODERN_PROTOCOL_VERSION;

    @RegisterExtension
    final Sessions sessions = new Sessions();

    // ------------------------------------------------------------------------------------------------ fixtures

    /** A task driver that records what the core gives it and fetches the task's result in one request. */
    static class FakeSupport implements TaskSupport {
        volatile TaskChannel channel;
        /** What {@link #augmentation} answers for every tool; {@code null}: a plain call. */
        volatile TaskAugmentation augment;
        final List<String> askedToAugment = new CopyOnWriteArrayList<>();
        final List<RequestOptions> augmentOptions = new CopyOnWriteArrayList<>();
        final List<Map<String, Object>> created = new CopyOnWriteArrayList<>();
        final List<RequestOptions> awaitOptions = new CopyOnWriteArrayList<>();
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public void bind(TaskChannel c) {
            if (channel != null) {
                throw new IllegalStateException("already bound");
            }
            channel = c;
        }

        @Override
        public TaskAugmentation augmentation(String toolName, RequestOptions options) {
            askedToAugment.add(toolName);
            augmentOptions.add(options);
            return augment;
        }

        @Override
        @SuppressWarnings("unchecked")
        public CallToolResult awaitResult(ToolCallAnswer.Pending pending, RequestOptions options)
                throws InterruptedException {
            Map<String, Object> creation = pending.creation();
            created.add(creation);
            awaitOptions.add(options);
            if (channel.server().era() == Era.MODERN) {
                Map<String, Object> task = channel.request("tasks/get", Map.of("taskId", creation.get("taskId")),
                        options);
                return channel.toolResult(pending.toolName(), (Map<String, Object>) task.get("result"));
            }
            Map<String, Object> task = (Map<String, Object>) creation.get("task");
            return channel.toolResult(pending.toolName(), channel.request("tasks/result", Map.of("taskId",
                    task.get("taskId")), options));
        }

        @Override
        public void clientClosed() {
            closed.incrementAndGet();
        }
    }

    static Map<String, Object> complete(Map<String, Object> result) {
        Map<String, Object> r = new LinkedHashMap<>(result);
        r.put("resultType", "complete");
        return r;
    }

    static Map<String, Object> text(String s) {
        return Map.of("content", List.of(Map.of("type", "text", "text", s)));
    }

    static Map<String, Object> createdTask(String id) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("resultType", "task");
        r.put("taskId", id);
        r.put("status", "working");
        r.put("createdAt", "2026-12-01T00:00:00Z");
        r.put("lastUpdatedAt", "2026-12-01T00:00:00Z");
        r.put("ttlMs", 60_000);
        r.put("pollIntervalMs", 100);
        return r;
    }

    /** A modern tasks server: discover with the extension, a task tool, tasks/get completing every task. */
    static void modernTasks(ScriptedTransport t) {
        t.on("server/discover", r -> Map.of("supportedVersions", List.of(V), "capabilities",
                Map.of("tools", Map.of(), "extensions", Map.of(EXT, Map.of())), "resultType", "complete"));
        t.on("tools/list", r -> complete(Map.of("tools", List.of(Map.of("name", "slow", "inputSchema",
                Map.of("type", "object"))))));
        t.on("tools/call", r -> createdTask("t1"));
        t.on("tasks/get", r -> complete(Map.of("taskId", r.params().get("taskId"), "status", "completed",
                "result", text("done"))));
        t.on("tasks/cancel", r -> complete(Map.of()));
        t.on("tasks/update", r -> complete(Map.of()));
        t.on("prompts/get", r -> complete(Map.of("messages", List.of())));
    }

    Session modern(Mode mode, FakeSupport support, Consumer<ScriptedTransport> extra,
                   UnaryOperator<McpClient.Builder> config) throws InterruptedException {
        return sessions.connected(mode, t -> {
            modernTasks(t);
            extra.accept(t);
        }, b -> {
            McpClient.Builder x = b.protocolMode(ProtocolMode.MODERN);
            return config.apply(support == null ? x : x.taskSupport(support));
        });
    }

    static final Map<String, Object> LEGACY_TASK_CAPS = Map.of("tools", Map.of(), "tasks", Map.of("list", Map.of(),
            "cancel", Map.of(), "requests", Map.of("tools", Map.of("call", Map.of()))));

    /** A 2025-11-25 tasks server: tools with each execution.taskSupport; an augmented call creates a task. */
    static void legacyTasks(ScriptedTransport t) {
        t.serverCapabilities(LEGACY_TASK_CAPS);
        t.on("tools/list", r -> Map.of("tools", List.of(
                tool("research", "required"), tool("maybe", "optional"), tool("never", "forbidden"),
                Map.of("name", "plain", "inputSchema", Map.of("type", "object")))));
        t.on("tools/call", r -> r.params().containsKey("task")
                ? Map.of("task", Map.of("taskId", "L1", "status", "working", "ttl", 300_000,
                "createdAt", "2026-12-01T00:00:00Z", "lastUpdatedAt", "2026-12-01T00:00:00Z", "pollInterval", 1000))
                : text("sync"));
        t.on("tasks/result", r -> Map.of("content", List.of(Map.of("type", "text", "text", "researched")),
                "_meta", Map.of("io.modelcontextprotocol/related-task", Map.of("taskId", "L1"))));
    }

    static Map<String, Object> tool(String name, String taskSupport) {
        return Map.of("name", name, "inputSchema", Map.of("type", "object"), "execution",
                Map.of("taskSupport", taskSupport));
    }

    Session legacy(FakeSupport support, Consumer<ScriptedTransport> extra) throws InterruptedException {
        return sessions.connected(Mode.INLINE, t -> {
            legacyTasks(t);
            extra.accept(t);
        }, b -> support == null ? b : b.taskSupport(support));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> metaOf(JsonRpcMessage.Request r) {
        return (Map<String, Object>) r.params().get("_meta");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> capsOf(JsonRpcMessage.Request r) {
        return (Map<String, Object>) metaOf(r).get("io.modelcontextprotocol/clientCapabilities");
    }

    static String textOf(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    // ------------------------------------------------------------------------------------------------ declaration

    @ParameterizedTest
    @EnumSource(Mode.class)
    void everyModernRequestOfAClientWithTaskSupportDeclaresTheExtension(Mode mode) throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(mode, support, t -> { }, b -> b.elicitationHandler(r -> ElicitResult.decline(), false));
        s.client().callTool("slow", Map.of());
        s.client().getPrompt("p", Map.of());
        support.channel.request("tasks/cancel", Map.of("taskId", "t1"), RequestOptions.DEFAULT);
        support.channel.request("tasks/update", Map.of("taskId", "t9", "inputResponses", Map.of()),
                RequestOptions.DEFAULT);
        // Mcp-Name: <taskId> on tasks/get|update|cancel (C.5.10)
        for (String m : List.of("tasks/get", "tasks/cancel", "tasks/update")) {
            JsonRpcMessage.Request r = s.server().awaitRequest(m);
            assertThat(s.server().recordOf(x -> x.equals(r)).routing().orElseThrow().name()).as(m)
                    .isEqualTo(r.params().get("taskId"));
        }

        List<JsonRpcMessage.Request> requests = s.server().sent().stream()
                .filter(m -> m instanceof JsonRpcMessage.Request).map(JsonRpcMessage.Request.class::cast).toList();
        assertThat(requests).extracting(JsonRpcMessage.Request::method)
                .contains("server/discover", "tools/call", "tasks/get", "prompts/get", "tasks/cancel", "tasks/update");
        for (JsonRpcMessage.Request r : requests) {
            assertThat(capsOf(r)).as(r.method()).isEqualTo(Map.of("elicitation", Map.of("form", Map.of()),
                    "extensions", Map.of(EXT, Map.of())));
        }
    }

    @Test
    void aClientWithoutTaskSupportNeverDeclaresTheExtension() throws Exception {
        Session s = modern(Mode.INLINE, null, t -> t.on("tools/call", r -> complete(text("x"))), b -> b);
        s.client().callTool("slow", Map.of());
        assertThat(capsOf(s.server().awaitRequest("tools/call"))).isEqualTo(Map.of());
        assertThat(capsOf(s.server().awaitRequest("server/discover"))).isEqualTo(Map.of());
    }

    @Test
    void theLegacyHandshakeNeverDeclaresATasksCapability() throws Exception {
        Session s = legacy(new FakeSupport(), t -> { });
        JsonRpcMessage.Request init = s.server().awaitRequest("initialize");
        assertThat(init.params().get("capabilities")).isEqualTo(Map.of());
        s.client().callTool("plain", Map.of());
        assertThat(s.server().awaitRequest("tools/call").params().get("_meta")).isNull();
    }

    // ------------------------------------------------------------------------------------------------ modern

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aModernTaskAnswerIsHandedToTheSupportAndItsResultDecoded(Mode mode) throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(mode, support, t -> { }, b -> b);
        CallToolResult r = s.client().callTool("slow", Map.of("seconds", 1),
                RequestOptions.newBuilder().timeout(Duration.ofSeconds(30)).putMeta("trace", "t1")
                        .progressListener(p -> { }).build());
        assertThat(textOf(r)).isEqualTo("done");
        assertThat(support.created).containsExactly(createdTask("t1"));
        // the driver gets what is left of the call's deadline
        assertThat(support.awaitOptions.get(0).timeout()).hasValueSatisfying(
                left -> assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
        // tasks/get is routed by its taskId (Mcp-Name on HTTP)
        JsonRpcMessage.Request get = s.server().awaitRequest("tasks/get");
        assertThat(s.server().recordOf(m -> m.equals(get)).routing().orElseThrow().name()).isEqualTo("t1");
        assertThat(get.params()).containsEntry("taskId", "t1");
        // the driver's polls carry the call's _meta but no progress token
        assertThat(support.awaitOptions.get(0).progressListener()).isEmpty();
        assertThat(metaOf(get)).containsEntry("trace", "t1").doesNotContainKey("progressToken");
        assertThat(metaOf(s.server().awaitRequest("tools/call"))).containsKey("progressToken");
    }

    @Test
    void theDriversResultIsScreenedLikeAnyResult() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(Mode.INLINE, support, t -> t.on("tasks/get", r -> complete(Map.of("taskId", "t1",
                "status", "completed", "result", Map.of("content", "not a list")))), b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("slow");
    }

    @Test
    void aTaskAnswerWithoutTheExtensionIsAProtocolErrorNamingIt() throws Exception {
        Session s = modern(Mode.INLINE, null, t -> { }, b -> b);
        assertThatThrownBy(() -> s.client().callTool("slow", Map.of())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'task'").hasMessageContaining(EXT);
    }

    @Test
    void resultTypeTaskOnPromptsGetIsRefusedEvenWithTheExtension() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(Mode.INLINE, support, t -> t.on("prompts/get", r -> createdTask("p1")), b -> b);
        assertThatThrownBy(() -> s.client().getPrompt("p", Map.of())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("prompts/get").hasMessageContaining("only tools/call and tasks/*");
        assertThat(support.created).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"noTaskId", "emptyTaskId", "noStatus"})
    void aTaskCreationIsHandedOverUnreadByTheCore(String flaw) throws Exception {
        FakeSupport support = new FakeSupport();
        Map<String, Object> bad = new LinkedHashMap<>(createdTask("t1"));
        switch (flaw) {
            case "noTaskId" -> bad.remove("taskId");
            case "emptyTaskId" -> bad.put("taskId", "");
            default -> bad.remove("status");
        }
        Session s = modern(Mode.INLINE, support, t -> t.on("tools/call", r -> bad), b -> b);
        // the core reads resultType only: what the task holds is the support's to check (mcp-tasks refuses these)
        assertThat(support.channel.callTool("slow", Map.of(), null, RequestOptions.DEFAULT))
                .isEqualTo(new ToolCallAnswer.Pending("slow", bad));
        assertThat(support.created).isEmpty();
        // the plain call hands it to the support as it came (this fake support then fails or not: its business)
        org.assertj.core.api.Assertions.catchThrowable(() -> s.client().callTool("slow", Map.of()));
        assertThat(support.created).containsExactly(bad);
    }

    @Test
    void multiRoundTripInputBeforeTheTaskIsCreated() throws Exception {
        FakeSupport support = new FakeSupport();
        Map<String, Object> ask = Map.of("resultType", "input_required", "inputRequests", Map.of("name",
                Map.of("method", "elicitation/create", "params", Map.of("message", "name?", "requestedSchema",
                        Map.of("type", "object", "properties", Map.of())))));
        Session s = modern(Mode.INLINE, support, t -> t.on("tools/call", r -> r.params().containsKey(
                "inputResponses") ? createdTask("t7") : ask),
                b -> b.elicitationHandler(r -> ElicitResult.accept(Map.of("name", "Alice")), false));
        assertThat(textOf(s.client().callTool("test_tool_with_task", Map.of()))).isEqualTo("done");
        assertThat(support.created).containsExactly(createdTask("t7"));
        assertThat(s.server().requests("tools/call")).hasSize(2);
    }

    @Test
    void aTaskAfterMultiRoundTripInputWithoutTheExtensionIsAProtocolError() throws Exception {
        Map<String, Object> ask = Map.of("resultType", "input_required", "requestState", "s1");
        Session s = modern(Mode.INLINE, null, t -> t.on("tools/call", r -> r.params().containsKey("requestState")
                ? createdTask("t8") : ask), b -> b);
        assertThatThrownBy(() -> s.client().callTool("test_tool_with_task", Map.of()))
                .isInstanceOf(McpProtocolException.class).hasMessageContaining("'task'");
        assertThat(s.server().requests("tools/call")).hasSize(2);
    }

    @Test
    void theChannelsCallToolAnswersPendingOrFinalAndHandsNothingOver() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(Mode.INLINE, support, t -> { }, b -> b);
        ToolCallAnswer answer = support.channel.callTool("slow", Map.of("seconds", 2), null, RequestOptions.DEFAULT);
        assertThat(answer).isEqualTo(new ToolCallAnswer.Pending("slow", createdTask("t1")));
        assertThat(s.server().awaitRequest("tools/call").params()).doesNotContainKey("task");
        assertThat(support.created).isEmpty();
        assertThat(support.askedToAugment).as("the channel's caller decides, not the hook").isEmpty();
        s.server().on("tools/call", r -> complete(text("at once")));
        assertThat(support.channel.callTool("slow", null, null, RequestOptions.DEFAULT))
                .isInstanceOfSatisfying(ToolCallAnswer.Final.class, f -> assertThat(textOf(f.result()))
                        .isEqualTo("at once"));
        s.server().on("tools/call", r -> complete(Map.of("content", "not a list")));
        assertThatThrownBy(() -> support.channel.callTool("slow", null, null, RequestOptions.DEFAULT))
                .as("a final result is screened").isInstanceOf(McpProtocolException.class);
        assertThat(textOf(support.channel.toolResult("slow", text("ok")))).isEqualTo("ok");
        assertThatThrownBy(() -> support.channel.toolResult("slow", Map.of("content", 5)))
                .isInstanceOf(McpProtocolException.class);
    }

    @Test
    void tasksRequestsAcceptResultTypeTaskAndComplete() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(Mode.INLINE, support, t -> t.on("tasks/get", r -> Map.of("resultType", "task",
                "taskId", "t1", "status", "working")), b -> b);
        assertThat(support.channel.request("tasks/get", Map.of("taskId", "t1"), RequestOptions.DEFAULT))
                .containsEntry("status", "working");
        assertThat(s.server().requests("tasks/get")).hasSize(1);
    }

    // ------------------------------------------------------------------------------------------------ -32602

    @ParameterizedTest
    @ValueSource(strings = {"tasks/get", "tasks/update", "tasks/cancel", "tasks/result"})
    void invalidParamsOnATaskLookupIsAPlainRpcErrorInTheCore(String method) throws Exception {
        for (Era era : Era.values()) {
            FakeSupport support = new FakeSupport();
            Consumer<ScriptedTransport> unknown = t -> t.on(method, r -> new JsonRpcError(-32602,
                    "Task not found", null));
            Session s = era == Era.MODERN ? modern(Mode.INLINE, support, unknown, b -> b) : legacy(support, unknown);
            // what -32602 means on tasks/* is the task support's rule (mcp-tasks types it)
            assertThatThrownBy(() -> support.channel.request(method, Map.of("taskId", "nope"),
                    RequestOptions.DEFAULT)).as(era + " " + method).isExactlyInstanceOf(McpRpcException.class)
                    .satisfies(e -> assertThat(((McpRpcException) e).code()).isEqualTo(-32602));
            assertThatThrownBy(() -> s.client().request(method, Map.of("taskId", "nope"), RequestOptions.DEFAULT))
                    .isExactlyInstanceOf(McpRpcException.class);
        }
    }

    @Test
    void invalidParamsOnAToolCallIsAPlainRpcError() throws Exception {
        FakeSupport support = new FakeSupport();
        modern(Mode.INLINE, support, t -> t.on("tools/call", r -> new JsonRpcError(-32602, "no such tool",
                null)), b -> b);
        assertThatThrownBy(() -> support.channel.callTool("x", null, null, RequestOptions.DEFAULT))
                .isExactlyInstanceOf(McpRpcException.class);
    }

    // ------------------------------------------------------------------------------------------------ input

    @Test
    void inputRequestsAreAnsweredByTheClientsHandlers() throws Exception {
        FakeSupport support = new FakeSupport();
        List<String> asked = new CopyOnWriteArrayList<>();
        modern(Mode.INLINE, support, t -> { }, b -> b.elicitationHandler(r -> {
            asked.add(r.message());
            return ElicitResult.accept(Map.of("confirm", true));
        }, false));
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("confirm",
                Map.of("type", "boolean")));
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("k1", Map.of("method", "elicitation/create", "params", Map.of("message", "delete?",
                "requestedSchema", schema)));
        inputs.put("k2", Map.of("method", "elicitation/create", "params", Map.of("message", "really?",
                "requestedSchema", schema)));
        Map<String, Object> answers = support.channel.answerInputRequests(inputs, RequestOptions.DEFAULT);
        assertThat(answers).containsOnlyKeys("k1", "k2");
        assertThat(answers.get("k1")).isInstanceOfSatisfying(Map.class, m -> {
            assertThat(m.get("action")).isEqualTo("accept");
            assertThat(m.get("content")).isEqualTo(Map.of("confirm", true));
        });
        assertThat(asked).containsExactly("delete?", "really?");
        assertThat(support.channel.answerInputRequests(Map.of(), RequestOptions.DEFAULT)).isEmpty();
    }

    @Test
    void inputWithoutAHandlerOrMalformedFailsBeforeAnyHandlerRuns() throws Exception {
        FakeSupport support = new FakeSupport();
        AtomicInteger handled = new AtomicInteger();
        modern(Mode.INLINE, support, t -> { }, b -> b.elicitationHandler(r -> {
            handled.incrementAndGet();
            return ElicitResult.decline();
        }, false));
        Map<String, Object> elicit = Map.of("method", "elicitation/create", "params", Map.of("message", "m",
                "requestedSchema", Map.of("type", "object", "properties", Map.of())));
        Map<String, Object> noHandler = new LinkedHashMap<>();
        noHandler.put("a", elicit);
        noHandler.put("b", Map.of("method", "sampling/createMessage", "params", Map.of("messages", List.of(),
                "maxTokens", 5)));
        assertThatThrownBy(() -> support.channel.answerInputRequests(noHandler, RequestOptions.DEFAULT))
                .isInstanceOf(McpInputRequiredException.class).hasMessageContaining("'b'")
                .hasMessageContaining("sampling/createMessage");
        assertThatThrownBy(() -> support.channel.answerInputRequests(Map.of("c", Map.of("method", "nope/x")),
                RequestOptions.DEFAULT)).isInstanceOf(McpProtocolException.class).hasMessageContaining("'c'");
        assertThat(handled).hasValue(0);
    }

    // ------------------------------------------------------------------------------------------------ listen

    @ParameterizedTest
    @EnumSource(Mode.class)
    void listenTasksAsksForTheIdsAndDeliversTaskNotifications(Mode mode) throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(mode, support, t -> t.hold("subscriptions/listen"), b -> b);
        BlockingQueue<Map<String, Object>> heard = new LinkedBlockingQueue<>();
        BackgroundCall<Subscription> call = BackgroundCall.start("listen", () -> support.channel.listenTasks(
                List.of("t1", "t2"), heard::add, RequestOptions.DEFAULT));
        JsonRpcMessage.Request listen = s.server().awaitRequest("subscriptions/listen");
        assertThat(listen.params().get("notifications")).isEqualTo(Map.of("taskIds", List.of("t1", "t2")));
        assertThat(capsOf(listen)).containsEntry("extensions", Map.of(EXT, Map.of()));
        Map<String, Object> subMeta = Map.of("io.modelcontextprotocol/subscriptionId", listen.id().value());
        s.server().deliverOn(listen.id(), new JsonRpcMessage.Notification(
                "notifications/subscriptions/acknowledged", Map.of("notifications", Map.of("taskIds",
                List.of("t1")), "_meta", subMeta)));
        Subscription sub = call.result();
        s.server().deliverOn(listen.id(), new JsonRpcMessage.Notification("notifications/tools/list_changed",
                Map.of("_meta", subMeta)));
        s.server().deliverOn(listen.id(), new JsonRpcMessage.Notification("notifications/tasks",
                Map.of("taskId", "t1", "status", "completed", "result", text("done"), "_meta", subMeta)));
        Map<String, Object> task = heard.poll(10, TimeUnit.SECONDS);
        assertThat(task).containsEntry("taskId", "t1").containsEntry("status", "completed");
        sub.close();
        assertThat(sub.isActive()).isFalse();
        assertThat(heard).isEmpty(); // the list change was not a task notification
    }

    @Test
    void listenTasksIsRefusedInTheLegacyEraAndWithoutIds() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = legacy(support, t -> { });
        assertThatThrownBy(() -> support.channel.listenTasks(List.of("L1"), m -> { }, RequestOptions.DEFAULT))
                .isInstanceOf(McpUnsupportedInEraException.class);
        assertThatThrownBy(() -> support.channel.listenTasks(List.of(), m -> { }, RequestOptions.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(s.server().requests("subscriptions/listen")).isEmpty();
    }

    @Test
    void notificationListenersHearTheirMethodUntilClosed() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = legacy(support, t -> { });
        BlockingQueue<Map<String, Object>> heard = new LinkedBlockingQueue<>();
        Registration registration = support.channel.onNotification("notifications/tasks/status", heard::add);
        Registration failing = support.channel.onNotification("notifications/tasks/status", m -> {
            throw new IllegalStateException("listener bug");
        });
        s.server().notifyClient("notifications/message", Map.of("level", "info", "data", "x"));
        s.server().notifyClient("notifications/tasks/status", Map.of("taskId", "L1", "status", "working"));
        assertThat(heard.poll(10, TimeUnit.SECONDS)).containsEntry("taskId", "L1");
        s.server().notifyClient("notifications/tasks/status", null);
        assertThat(heard.poll(10, TimeUnit.SECONDS)).isEmpty();
        registration.close();
        registration.close();
        failing.close();
        notifyCompletedAndSettle(support, s);
        assertThat(heard).isEmpty();
    }

    @Test
    void aNotificationRegistrationClosedTwiceRemovesOnlyItsOwnListener() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = legacy(support, t -> { });
        BlockingQueue<Map<String, Object>> heard = new LinkedBlockingQueue<>();
        Consumer<Map<String, Object>> listener = heard::add;
        Registration first = support.channel.onNotification("notifications/tasks/status", listener);
        Registration second = support.channel.onNotification("notifications/tasks/status", listener);
        first.close();
        first.close(); // idempotent: the other registration of the same listener stays
        s.server().notifyClient("notifications/tasks/status", Map.of("taskId", "L1", "status", "working"));
        assertThat(heard.poll(10, TimeUnit.SECONDS)).containsEntry("taskId", "L1");
        second.close();
        notifyCompletedAndSettle(support, s);
        assertThat(heard).isEmpty();
    }

    /** Sends a task status notification, then returns once the client's event loop has run past it. */
    private static void notifyCompletedAndSettle(FakeSupport support, Session s) throws InterruptedException {
        s.server().notifyClient("notifications/tasks/status", Map.of("taskId", "L1", "status", "completed"));
        CountDownLatch after = new CountDownLatch(1);
        try (Registration probe = support.channel.onNotification("notifications/probe", m -> after.countDown())) {
            s.server().notifyClient("notifications/probe", Map.of());
            assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    // ------------------------------------------------------------------------------------------------ legacy

    @Test
    void theSupportsAugmentationIsSentAsGivenAndItsTaskDriven() throws Exception {
        FakeSupport support = new FakeSupport();
        support.augment = new TaskAugmentation(Duration.ofMinutes(1));
        Session s = legacy(support, t -> { });
        CallToolResult r = s.client().callTool("research", Map.of("q", "x"), RequestOptions.ofTimeout(
                Duration.ofSeconds(30)));
        assertThat(textOf(r)).isEqualTo("researched");
        assertThat(support.askedToAugment).containsExactly("research");
        // the hook gets what is left of the call's deadline
        assertThat(support.augmentOptions.get(0).timeout()).hasValueSatisfying(
                left -> assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
        assertThat(s.server().awaitRequest("tools/call").params()).containsEntry("task", Map.of("ttl", 60_000));
        assertThat(s.server().requests("tools/list")).as("the core looks nothing up on its own").isEmpty();
        assertThat(support.created).hasSize(1);
        assertThat(support.created.get(0).get("task")).isInstanceOfSatisfying(Map.class,
                t -> assertThat(t.get("taskId")).isEqualTo("L1"));
        // no ttl asked: an empty task
        support.augment = new TaskAugmentation(null);
        s.client().callTool("research", Map.of());
        assertThat(s.server().requests("tools/call").get(1).params()).containsEntry("task", Map.of());
        assertThatThrownBy(() -> new TaskAugmentation(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCatalogTellsEachToolsTaskSupportListingOnce() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = legacy(support, t -> { });
        assertThat(support.channel.toolTaskSupport("research", RequestOptions.DEFAULT)).isEqualTo("required");
        assertThat(support.channel.toolTaskSupport("maybe", RequestOptions.DEFAULT)).isEqualTo("optional");
        assertThat(support.channel.toolTaskSupport("never", RequestOptions.DEFAULT)).isEqualTo("forbidden");
        assertThat(support.channel.toolTaskSupport("plain", RequestOptions.DEFAULT)).isEqualTo("forbidden");
        assertThat(s.server().requests("tools/list")).hasSize(1);
        // a tool no listing describes is listed for once, not at every question
        assertThat(support.channel.toolTaskSupport("unlisted", RequestOptions.DEFAULT)).isEqualTo("forbidden");
        assertThat(support.channel.toolTaskSupport("unlisted", RequestOptions.DEFAULT)).isEqualTo("forbidden");
        assertThat(s.server().requests("tools/list")).hasSize(2);
        // the channel sends what it is given, and tells a task from a result by the augmentation
        assertThat(support.channel.callTool("maybe", null, new TaskAugmentation(Duration.ofSeconds(5)),
                RequestOptions.DEFAULT)).isInstanceOf(ToolCallAnswer.Pending.class);
        assertThat(support.channel.callTool("never", null, null, RequestOptions.DEFAULT))
                .isInstanceOf(ToolCallAnswer.Final.class);
        assertThat(s.server().requests("tools/call").get(0).params()).containsEntry("task", Map.of("ttl", 5000));
    }

    @Test
    void withoutTaskSupportNothingIsAugmentedOrListed() throws Exception {
        Session noSupport = legacy(null, t -> { });
        assertThat(textOf(noSupport.client().callTool("research", Map.of()))).isEqualTo("sync");
        assertThat(noSupport.server().requests("tools/list")).isEmpty();
        assertThat(noSupport.server().requests("tools/call")).allSatisfy(r -> assertThat(r.params())
                .doesNotContainKey("task"));
    }

    @Test
    void theChannelNamesWhatEndedTheClient() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = legacy(support, t -> { });
        assertThat(support.channel.closeCause()).isEmpty();
        McpTransportException lost = new McpTransportException("the server process exited with code 137", null);
        s.server().lose(lost);
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (!support.channel.closeToken().isCancelled() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(support.channel.closeToken().isCancelled()).isTrue();
        assertThat(support.channel.closeCause()).containsSame(lost);
    }

    @Test
    void anAugmentedCallAnsweredSynchronouslyIsAPlainResult() throws Exception {
        FakeSupport support = new FakeSupport();
        support.augment = new TaskAugmentation(null);
        Session s = legacy(support, t -> t.on("tools/call", r -> text("ran at once")));
        assertThat(textOf(s.client().callTool("research", Map.of()))).isEqualTo("ran at once");
        assertThat(support.created).isEmpty();
    }

    @Test
    void aLegacyAnswerIsATaskOnlyWhenTheCallWasAugmented() throws Exception {
        FakeSupport support = new FakeSupport();
        Map<String, Object> odd = new LinkedHashMap<>(createdTask("x1"));
        odd.put("task", Map.of("taskId", "x2", "status", "working"));
        odd.putAll(text("plain after all"));
        Session s = legacy(support, t -> t.on("tools/call", r -> odd));
        assertThat(textOf(s.client().callTool("plain", Map.of()))).isEqualTo("plain after all");
        assertThat(support.created).isEmpty();
        assertThat(s.server().requests("tasks/result")).isEmpty();
    }

    @Test
    void aLegacyTaskIsHandedOverUnread() throws Exception {
        FakeSupport support = new FakeSupport();
        support.augment = new TaskAugmentation(null);
        Session s = legacy(support, t -> t.on("tools/call", r -> Map.of("task", "L1")));
        assertThat(support.channel.callTool("research", null, new TaskAugmentation(null), RequestOptions.DEFAULT))
                .isEqualTo(new ToolCallAnswer.Pending("research", Map.of("task", "L1")));
        assertThatThrownBy(() -> s.client().callTool("research", Map.of())).isInstanceOf(RuntimeException.class);
        assertThat(support.created).containsExactly(Map.of("task", "L1"));
    }

    // ------------------------------------------------------------------------------------------------ life cycle

    @Test
    void theChannelBeforeConnectAtCloseAndItsThreads() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = sessions.unconnected(Mode.INLINE, McpClientTasksTest::legacyTasks, b -> b.taskSupport(support));
        TaskChannel channel = support.channel;
        assertThat(channel).isNotNull(); // bound at build
        assertThatThrownBy(channel::server).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("connect()");
        assertThatThrownBy(() -> s.client().callTool("research", Map.of())).isInstanceOf(IllegalStateException.class);
        assertThat(support.askedToAugment).as("not asked before connect").isEmpty();
        s.client().connect();
        TaskServer server = channel.server();
        assertThat(server.era()).isEqualTo(Era.LEGACY);
        assertThat(server.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(server.key()).isNotBlank();
        assertThat(server.capabilities().tasks()).containsKey("requests");

        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean sawClose = new AtomicBoolean();
        Thread waiter = channel.threads().start("task-poll", () -> {
            started.countDown();
            CountDownLatch fired = new CountDownLatch(1);
            channel.closeToken().onCancel(fired::countDown);
            try {
                sawClose.set(fired.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                sawClose.set(channel.closeToken().isCancelled());
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(channel.closeToken().isCancelled()).isFalse();
        s.client().close();
        assertThat(channel.closeToken().isCancelled()).isTrue();
        assertThat(support.closed).hasValue(1);
        assertThat(channel.server()).as("a driver ending its work still learns the server").isEqualTo(server);
        Await.ended("the task thread", waiter);
        assertThat(sawClose).isTrue();
        s.client().close();
        assertThat(support.closed).hasValue(1);
        assertThatThrownBy(() -> channel.request("tasks/get", Map.of("taskId", "L1"), RequestOptions.DEFAULT))
                .isInstanceOf(McpClosedException.class);
    }

    @Test
    void aSupportBindsToOneClientOnly() {
        FakeSupport support = new FakeSupport();
        sessions.unconnected(Mode.INLINE, t -> { }, b -> b.taskSupport(support));
        assertThatThrownBy(() -> sessions.unconnected(Mode.INLINE, t -> { }, b -> b.taskSupport(support)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> McpClient.newBuilder(ScriptedTransport.create(Mode.INLINE)).taskSupport(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void aFailingClientClosedDoesNotBreakClose() throws Exception {
        FakeSupport support = new FakeSupport() {
            @Override
            public void clientClosed() {
                super.clientClosed();
                throw new IllegalStateException("driver bug");
            }
        };
        Session s = legacy(support, t -> { });
        s.client().close();
        assertThat(support.closed).hasValue(1);
        assertThat(s.client().isClosed()).isTrue();
    }

    @Test
    void theDriversRequestHonoursTheCallersTimeoutAndToken() throws Exception {
        FakeSupport support = new FakeSupport();
        Session s = modern(Mode.INLINE, support, t -> t.hold("tasks/get"), b -> b);
        CancellationToken token = CancellationToken.create();
        BackgroundCall<Map<String, Object>> call = BackgroundCall.start("get", () -> support.channel.request(
                "tasks/get", Map.of("taskId", "t1"), RequestOptions.newBuilder().token(token).build()));
        RequestId id = s.server().awaitRequest("tasks/get").id();
        token.cancel("stop");
        assertThat(call.failure()).isInstanceOf(McpCancelledException.class);
        assertThat(((Number) s.server().awaitNotification("notifications/cancelled").params().get("requestId"))
                .longValue()).isEqualTo(((Number) id.value()).longValue());
        assertThatThrownBy(() -> support.channel.request("tasks/get", Map.of("taskId", "t1"),
                RequestOptions.newBuilder().timeout(Duration.ofMillis(50)).build()))
                .isInstanceOf(McpTimeoutException.class);
    }
}
