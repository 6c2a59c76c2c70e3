package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import dev.loommcp.testing.Listen;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import dev.loommcp.config.OutputSchemaValidation;

/** Tools: listing and paging, handles, {@code tools/call} with {@code _meta} and progress, output-schema checks. */
class McpClientToolsTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Map<String, Object> tool(String name) {
        return Map.of("name", name, "inputSchema", Map.of("type", "object"));
    }

    private static Map<String, Object> page(List<Map<String, Object>> tools, String nextCursor) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tools", tools);
        if (nextCursor != null) {
            r.put("nextCursor", nextCursor);
        }
        return r;
    }

    /** A tools/list responder serving pages keyed by cursor ({@code null} key: the first page). */
    private static ScriptedTransport.Responder pages(Map<String, Map<String, Object>> byCursor) {
        return r -> {
            Object cursor = r.params() == null ? null : r.params().get("cursor");
            Map<String, Object> p = byCursor.get(cursor);
            return p != null ? p : new JsonRpcError(-32602, "unknown cursor", null);
        };
    }

    private static Map<String, Object> textResult(String text) {
        return Map.of("content", List.of(Map.of("type", "text", "text", text)));
    }

    // ------------------------------------------------------------------------------------------------ listing

    @Test
    void listToolsSendsNoCursorForTheFirstPageAndEchoesCursorsVerbatim() throws Exception {
        String weird = "  c\u00fcrs/or+==\n\"x\"  ";
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> page(List.of(tool("a")), weird)),
                b -> b);

        ListToolsResult first = s.client().listTools(null);
        assertThat(first.tools()).extracting(Tool::name).containsExactly("a");
        assertThat(first.nextCursor()).isEqualTo(weird);
        s.client().listTools(first.nextCursor());
        s.client().listTools("");

        List<JsonRpcMessage.Request> sent = s.server().requests("tools/list");
        assertThat(sent.get(0).params()).isNull();
        assertThat(sent.get(1).params()).isEqualTo(Map.of("cursor", weird));
        assertThat(sent.get(2).params()).isEqualTo(Map.of("cursor", ""));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void listAllToolsFollowsEveryPageIncludingAnEmptyStringCursor(Mode mode) throws Exception {
        Map<String, Map<String, Object>> pages = new HashMap<>();
        pages.put(null, page(List.of(tool("a"), tool("b")), ""));
        pages.put("", page(List.of(tool("c")), "p3"));
        pages.put("p3", page(List.of(tool("d")), null));
        Session s = sessions.connected(mode, t -> t.on("tools/list", pages(pages)), b -> b);

        assertThat(s.client().listAllTools()).extracting(Tool::name).containsExactly("a", "b", "c", "d");
        assertThat(s.server().requests("tools/list")).extracting(JsonRpcMessage.Request::params)
                .containsExactly(null, Map.of("cursor", ""), Map.of("cursor", "p3"));
    }

    @Test
    void listAllToolsStopsOnARepeatedCursor() throws Exception {
        Map<String, Map<String, Object>> pages = new HashMap<>();
        pages.put(null, page(List.of(tool("a")), "x"));
        pages.put("x", page(List.of(tool("b")), "y"));
        pages.put("y", page(List.of(tool("c")), "x"));
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", pages(pages)), b -> b);

        assertThatThrownBy(s.client()::listAllTools).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("tools/list").hasMessageContaining("repeated a cursor on page 3 ");
        assertThat(s.server().requests("tools/list")).hasSize(3);
        s.client().ping();
    }

    @Test
    void listAllToolsStopsBeyondMaxListPages() throws Exception {
        Map<String, Map<String, Object>> pages = new HashMap<>();
        pages.put(null, page(List.of(tool("a")), "2"));
        pages.put("2", page(List.of(tool("b")), "3"));
        pages.put("3", page(List.of(tool("c")), null));
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", pages(pages)), b -> b.maxListPages(2));

        assertThatThrownBy(s.client()::listAllTools).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("more than 2 pages");
        assertThat(s.server().requests("tools/list")).hasSize(2);
    }

    @Test
    void listAllToolsReadsExactlyMaxListPages() throws Exception {
        Map<String, Map<String, Object>> pages = new HashMap<>();
        pages.put(null, page(List.of(tool("a")), "2"));
        pages.put("2", page(List.of(tool("b")), null));
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", pages(pages)), b -> b.maxListPages(2));
        assertThat(s.client().listAllTools()).extracting(Tool::name).containsExactly("a", "b");
    }

    @Test
    void aNonStringCursorIsAProtocolError() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> Map.of("tools", List.of(),
                "nextCursor", 5)), b -> b);
        assertThatThrownBy(s.client()::listAllTools).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("nextCursor");
    }

    @Test
    void aListResultWithoutToolsIsAProtocolError() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> Map.of()), b -> b);
        assertThatThrownBy(() -> s.client().listTools(null)).isInstanceOf(McpProtocolException.class);
        assertThatThrownBy(s.client()::listAllTools).isInstanceOf(McpProtocolException.class);
        assertThatThrownBy(s.client()::tools).isInstanceOf(McpProtocolException.class);
    }

    @Test
    void aToolWithoutNameIsLeftOutOfTheListing() throws Exception {
        // it used to fail the whole listing; one malformed entry now costs that entry only (McpClientListEntriesTest)
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> Map.of("tools",
                List.of(Map.of("inputSchema", Map.of()), Map.of("name", "ok", "inputSchema", Map.of())))), b -> b);
        assertThat(s.client().listAllTools()).extracting(Tool::name).containsExactly("ok");
    }

    // ------------------------------------------------------------------------------------------------ handles

    @ParameterizedTest
    @EnumSource(Mode.class)
    void toolHandlesCarryTheRawDefinitionAndAreRevokedByClose(Mode mode) throws Exception {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("name", "echo");
        raw.put("title", "Echo");
        raw.put("inputSchema", Map.of("type", "object", "properties", Map.of("m", Map.of("type", "string"))));
        raw.put("x-vendor", Map.of("cost", 3, "tags", List.of("a", "b")));
        raw.put("futureField", List.of(1, 2));
        Session s = sessions.connected(mode, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(raw)))
                .on("tools/call", r -> textResult("called " + r.params().get("name"))), b -> b);

        List<McpTool> handles = s.client().tools();
        assertThat(handles).hasSize(1);
        McpTool echo = handles.get(0);
        assertThat(echo.name()).isEqualTo("echo");
        assertThat(echo.tool().title()).isEqualTo("Echo");
        assertThat(echo.definition()).isEqualTo(raw);
        assertThat(echo.definition()).containsKeys("x-vendor", "futureField");
        assertThatThrownBy(() -> echo.definition().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(echo.isOpen()).isTrue();

        assertThat(echo.call(Map.of("m", "hi")).text()).isEqualTo("called echo");
        assertThat(s.server().awaitRequest("tools/call").params())
                .isEqualTo(Map.of("name", "echo", "arguments", Map.of("m", "hi")));
        assertThat(echo.callAsync(null, RequestOptions.DEFAULT).get(10, TimeUnit.SECONDS).text())
                .isEqualTo("called echo");

        s.client().close();
        assertThat(echo.isOpen()).isFalse();
        assertThat(echo.toString()).contains("revoked");
        assertThatThrownBy(() -> echo.call(Map.of())).isInstanceOf(McpClosedException.class);
        assertThatThrownBy(() -> echo.call(Map.of(), RequestOptions.DEFAULT)).isInstanceOf(McpClosedException.class);
        assertThat(s.server().requests("tools/call")).hasSize(2);
    }

    @Test
    void toolDefinitionsAreDeeplyUnmodifiable() throws Exception {
        Map<String, Object> raw = new LinkedHashMap<>(tool("t"));
        raw.put("outputSchema", SCHEMA);
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(raw)))
                .on("tools/call", r -> structured("not an integer")),
                b -> b.outputSchemaValidation(OutputSchemaValidation.FAIL));
        McpTool handle = s.client().tools().get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> schema = (Map<String, Object>) handle.definition().get("outputSchema");
        try {
            schema.clear();
        } catch (UnsupportedOperationException expected) {
            // deeply unmodifiable: fine
        }
        assertThatThrownBy(() -> handle.call(Map.of())).isInstanceOf(McpProtocolException.class);
    }

    @Test
    void asyncCallOfARevokedHandleFailsWithClosed() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/list", r -> Map.of("tools", List.of(tool("t")))),
                b -> b);
        McpTool t = s.client().tools().get(0);
        s.client().close();
        assertThatThrownBy(() -> t.callAsync(Map.of(), RequestOptions.DEFAULT).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(McpClosedException.class);
    }

    // ------------------------------------------------------------------------------------------------ calling

    @ParameterizedTest
    @EnumSource(Mode.class)
    void callToolSendsNameAndArgumentsAndReturnsTheResult(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of(
                "content", List.of(Map.of("type", "text", "text", "one"), Map.of("type", "text", "text", "two")),
                "structuredContent", Map.of("n", 2))), b -> b);

        CallToolResult r = s.client().callTool("count", Map.of("upTo", 2, "nested", Map.of("k", List.of(true))));
        assertThat(r.error()).isFalse();
        assertThat(r.content()).containsExactly(TextContent.of("one"), TextContent.of("two"));
        assertThat(r.structuredContent()).isEqualTo(Map.of("n", 2));
        assertThat(s.server().awaitRequest("tools/call").params()).isEqualTo(Map.of("name", "count",
                "arguments", Map.of("upTo", 2, "nested", Map.of("k", List.of(true)))));
    }

    @Test
    void nullArgumentsAreOmitted() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> textResult("ok")), b -> b);
        s.client().callTool("t", null);
        assertThat(s.server().awaitRequest("tools/call").params()).isEqualTo(Map.of("name", "t"));
    }

    @Test
    void persistentToolMetaIsStampedAndPerCallMetaWinsKeyByKey() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> textResult("ok")), b -> b);
        McpClient c = s.client();
        Map<String, Object> persistent = new LinkedHashMap<>();
        persistent.put("run", "r-1");
        persistent.put("shared", "persistent");
        c.setToolMeta(persistent);
        persistent.put("run", "mutated after set");

        c.callTool("t", Map.of(), RequestOptions.newBuilder().putMeta("shared", "per-call").putMeta("extra", 1)
                .build());
        c.callTool("t", Map.of());
        c.setToolMeta(null);
        c.callTool("t", Map.of());
        c.callTool("t", Map.of(), RequestOptions.newBuilder().meta(Map.of("only", "call")).build());

        List<JsonRpcMessage.Request> calls = s.server().awaitRequests("tools/call", 4);
        assertThat(calls.get(0).params().get("_meta"))
                .isEqualTo(Map.of("run", "r-1", "shared", "per-call", "extra", 1));
        assertThat(calls.get(1).params().get("_meta")).isEqualTo(Map.of("run", "r-1", "shared", "persistent"));
        assertThat(calls.get(2).params()).doesNotContainKey("_meta");
        assertThat(calls.get(3).params().get("_meta")).isEqualTo(Map.of("only", "call"));
        assertThat(c.toolMeta()).isEmpty();
    }

    @Test
    void toolMetaIsAnUnmodifiableCopy() {
        Session s = sessions.unconnected(Mode.INLINE, t -> { }, b -> b);
        s.client().setToolMeta(Map.of("run", "r"));
        assertThat(s.client().toolMeta()).isEqualTo(Map.of("run", "r"));
        assertThatThrownBy(() -> s.client().toolMeta().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void genericRequestAddsOptionsMetaToParams() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("x/custom", r -> Map.of("echo", r.params())), b -> b);
        Map<String, Object> result = s.client().request("x/custom", Map.of("a", 1, "_meta", Map.of("keep", true)),
                RequestOptions.newBuilder().putMeta("added", "yes").build());
        assertThat(result.get("echo")).isEqualTo(Map.of("a", 1, "_meta", Map.of("keep", true, "added", "yes")));
    }

    @Test
    void genericRequestRefusesANonObjectResult() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("x/list", r -> new JsonRpcMessage.Response(r.id(),
                List.of(1, 2))), b -> b);
        assertThatThrownBy(() -> s.client().request("x/list", null, RequestOptions.DEFAULT))
                .isInstanceOf(McpProtocolException.class).hasMessage("result of x/list is an array, not an object");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void progressListenerGetsNotificationsForAnSdkAssignedToken(Mode mode) throws Exception {
        List<ProgressNotification> seen = new CopyOnWriteArrayList<>();
        CountDownLatch two = new CountDownLatch(2);
        List<Thread> listenerThreads = new CopyOnWriteArrayList<>();
        Session[] box = new Session[1];
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> {
            @SuppressWarnings("unchecked")
            Object token = ((Map<String, Object>) r.params().get("_meta")).get("progressToken");
            // an unrelated token first: it must not reach the listener
            t.deliverOn(r.id(), progress("not-ours", 1, null, null));
            t.deliverOn(r.id(), progress(token, 1, 3.0, "first"));
            t.deliverOn(r.id(), progress(token, 2, 3.0, "second"));
            return textResult("done");
        }), b -> b.keepNotifications(true));
        box[0] = s;

        CallToolResult r = s.client().callTool("slow", Map.of(), RequestOptions.newBuilder()
                .putMeta("trace", "t-1")
                .progressListener(p -> {
                    seen.add(p);
                    listenerThreads.add(Thread.currentThread());
                    two.countDown();
                })
                .build());
        assertThat(r.text()).isEqualTo("done");
        assertThat(two.await(10, TimeUnit.SECONDS)).isTrue();

        JsonRpcMessage.Request call = s.server().awaitRequest("tools/call");
        @SuppressWarnings("unchecked")
        Map<String, Object> meta = (Map<String, Object>) call.params().get("_meta");
        assertThat(meta).containsEntry("trace", "t-1").containsKey("progressToken");
        Object token = meta.get("progressToken");
        assertThat(token).isNotNull();
        assertThat(seen).extracting(ProgressNotification::progress).containsExactly(1.0, 2.0);
        assertThat(seen).extracting(ProgressNotification::message).containsExactly("first", "second");
        assertThat(seen).extracting(ProgressNotification::total).containsExactly(3.0, 3.0);
        assertThat(seen).allSatisfy(p -> assertThat(p.progressToken()).isEqualTo(token));
        assertThat(listenerThreads).containsOnly(Thread.currentThread()); // the caller runs it while it waits
        assertThat(s.client().drainNotifications()).isEmpty();
    }

    @Test
    void eachCallGetsItsOwnProgressToken() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> textResult("ok")), b -> b);
        RequestOptions withListener = RequestOptions.newBuilder().progressListener(p -> { }).build();
        s.client().callTool("a", null, withListener);
        s.client().callTool("b", null, withListener);
        s.client().callTool("c", null);
        List<JsonRpcMessage.Request> calls = s.server().awaitRequests("tools/call", 3);
        Object t1 = ((Map<?, ?>) calls.get(0).params().get("_meta")).get("progressToken");
        Object t2 = ((Map<?, ?>) calls.get(1).params().get("_meta")).get("progressToken");
        assertThat(t1).isNotNull().isNotEqualTo(t2);
        assertThat(calls.get(2).params()).doesNotContainKey("_meta");
    }

    static JsonRpcMessage.Notification progress(Object token, double progress, Double total, String message) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("progressToken", token);
        p.put("progress", progress);
        if (total != null) {
            p.put("total", total);
        }
        if (message != null) {
            p.put("message", message);
        }
        return new JsonRpcMessage.Notification("notifications/progress", p);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void isErrorResultsAreReturnedNotThrown(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of("content",
                List.of(Map.of("type", "text", "text", "disk full")), "isError", true)), b -> b);
        CallToolResult r = s.client().callTool("write", Map.of());
        assertThat(r.error()).isTrue();
        assertThat(r.isError()).isTrue();
        assertThat(r.text()).isEqualTo("disk full");
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aJsonRpcErrorIsAnRpcExceptionWithEveryDetail(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call",
                r -> new JsonRpcError(-32602, "Unknown tool: nope", Map.of("tool", "nope", "hint", List.of(1)))),
                b -> b);

        Throwable thrown = catchThrowable(() -> s.client().callTool("nope", Map.of()));
        assertThat(thrown).isInstanceOf(McpRpcException.class);
        McpRpcException e = (McpRpcException) thrown;
        JsonRpcMessage.Request sent = s.server().awaitRequest("tools/call");
        assertThat(e.code()).isEqualTo(-32602);
        assertThat(e.errorMessage()).isEqualTo("Unknown tool: nope");
        assertThat(e.data()).isEqualTo(Map.of("tool", "nope", "hint", List.of(1)));
        assertThat(e.method()).isEqualTo("tools/call");
        assertThat(e.requestId().orElseThrow()).isEqualTo(sent.id());
        assertThat(e.error()).isEqualTo(new JsonRpcError(-32602, "Unknown tool: nope",
                Map.of("tool", "nope", "hint", List.of(1))));
        assertThat(e).hasMessageContaining("tools/call").hasMessageContaining("id " + sent.id())
                .hasMessageContaining("-32602");
        s.client().ping();
    }

    @Test
    void aMalformedCallResultIsAProtocolErrorNamingTheTool() throws Exception {
        Session s = sessions.connected(Mode.INLINE, t -> t.on("tools/call", r -> Map.of("content", 17)), b -> b);
        assertThatThrownBy(() -> s.client().callTool("weird", Map.of())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("weird");
    }

    @Test
    void aMalformedCallResultNeverQuotesThePayload() throws Exception {
        String secret = "s3cr3tTokenValue";
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("tools/call", r -> Map.of("content", List.of(), "isError", secret)), b -> b);
        assertThatThrownBy(() -> s.client().callTool("weird", Map.of())).isInstanceOf(McpProtocolException.class)
                .message().doesNotContain(secret);
    }

    // ------------------------------------------------------------------------------------------------ output schema

    private static final Map<String, Object> SCHEMA = Map.of("type", "object",
            "properties", Map.of("n", Map.of("type", "integer")), "required", List.of("n"));

    private static Map<String, Object> structured(Object n) {
        Map<String, Object> sc = new HashMap<>();
        sc.put("n", n);
        return Map.of("content", List.of(Map.of("type", "text", "text", String.valueOf(n))),
                "structuredContent", sc);
    }

    /** A server with tool "counted" (with outputSchema) and "free" (without); tools/call answers what the test put. */
    private Session schemaServer(OutputSchemaValidation mode, List<Map<String, Object>> answers)
            throws InterruptedException {
        Map<String, Object> counted = new LinkedHashMap<>(tool("counted"));
        counted.put("outputSchema", SCHEMA);
        return sessions.connected(Mode.INLINE, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(counted, tool("free"))))
                .on("tools/call", r -> answers.remove(0)), b -> b.outputSchemaValidation(mode));
    }

    @Test
    void failModeRejectsStructuredContentThatBreaksTheSchema() throws Exception {
        List<Map<String, Object>> answers = new ArrayList<>(List.of(structured(1), structured("s3cr3t"),
                Map.of("content", List.of())));
        Session s = schemaServer(OutputSchemaValidation.FAIL, answers);
        s.client().listAllTools();

        assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isEqualTo(Map.of("n", 1));
        assertThatThrownBy(() -> s.client().callTool("counted", Map.of()))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'counted'").hasMessageContaining("outputSchema")
                .message().doesNotContain("s3cr3t");
        assertThatThrownBy(() -> s.client().callTool("counted", Map.of()))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'counted'").hasMessageContaining("no structuredContent");
    }

    @Test
    void failModeNeverChecksIsErrorResults() throws Exception {
        Map<String, Object> errorResult = new HashMap<>(structured("bad"));
        errorResult.put("isError", true);
        Session s = schemaServer(OutputSchemaValidation.FAIL, new ArrayList<>(List.of(errorResult,
                Map.of("content", List.of(), "isError", true))));
        s.client().listAllTools();
        assertThat(s.client().callTool("counted", Map.of()).error()).isTrue();
        assertThat(s.client().callTool("counted", Map.of()).error()).isTrue();
    }

    @Test
    void failModeSkipsToolsWithoutSchemaAndUnknownTools() throws Exception {
        Session s = schemaServer(OutputSchemaValidation.FAIL, new ArrayList<>(List.of(structured("x"),
                structured("y"))));
        s.client().listAllTools();
        assertThat(s.client().callTool("free", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));
        assertThat(s.client().callTool("not-listed", Map.of()).structuredContent()).isEqualTo(Map.of("n", "y"));
    }

    @Test
    void failModeSkipsToolsNeverListed() throws Exception {
        Session s = schemaServer(OutputSchemaValidation.FAIL, new ArrayList<>(List.of(structured("x"))));
        assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));
    }

    @Test
    void toolsHandlesAlsoFillTheCatalog() throws Exception {
        Session s = schemaServer(OutputSchemaValidation.FAIL, new ArrayList<>(List.of(structured("x"))));
        McpTool counted = s.client().tools().get(0);
        assertThatThrownBy(() -> counted.call(Map.of())).isInstanceOf(McpProtocolException.class);
    }

    @Test
    void warnAndOffModesReturnTheResult() throws Exception {
        for (OutputSchemaValidation mode : List.of(OutputSchemaValidation.WARN, OutputSchemaValidation.OFF)) {
            Session s = schemaServer(mode, new ArrayList<>(List.of(structured("x"), Map.of("content", List.of()))));
            s.client().listAllTools();
            assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));
            assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isNull();
        }
    }

    @Test
    void theDefaultModeIsWarn() throws Exception {
        Map<String, Object> counted = new LinkedHashMap<>(tool("counted"));
        counted.put("outputSchema", SCHEMA);
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(counted)))
                .on("tools/call", r -> structured("x")), b -> b);
        s.client().listAllTools();
        assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void checksAreSkippedAfterListChangedOrASessionRestartUntilTheToolsAreListedAgain(boolean restart)
            throws Exception {
        CountDownLatch changed = new CountDownLatch(1);
        List<Map<String, Object>> answers = new ArrayList<>(List.of(structured("x"), structured("y")));
        Map<String, Object> counted = new LinkedHashMap<>(tool("counted"));
        counted.put("outputSchema", SCHEMA);
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("tools/list", r -> Map.of("tools", List.of(counted)))
                .on("tools/call", r -> answers.remove(0)), b -> b
                .outputSchemaValidation(OutputSchemaValidation.FAIL)
                .listener(new Listen().toolsChanged(changed::countDown)
                .restarts(changed::countDown)));
        s.client().listAllTools();

        if (restart) {
            // the new session may have other tools: the old definitions prove nothing
            s.server().expireSession();
            s.client().ping(); // refused in the old session: the client starts a new one and sends it again
        } else {
            s.server().notifyClient("notifications/tools/list_changed", null);
        }
        assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));

        s.client().listAllTools();
        assertThatThrownBy(() -> s.client().callTool("counted", Map.of())).isInstanceOf(McpProtocolException.class);
    }

    @Test
    void aListChangedDuringTheListingLeavesTheCatalogStale() throws Exception {
        Map<String, Object> counted = new LinkedHashMap<>(tool("counted"));
        counted.put("outputSchema", SCHEMA);
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("tools/list", r -> {
                    // the change notification is read before the (now outdated) listing's response
                    t.deliver(new JsonRpcMessage.Notification("notifications/tools/list_changed", null));
                    return Map.of("tools", List.of(counted));
                })
                .on("tools/call", r -> structured("x")), b -> b.outputSchemaValidation(OutputSchemaValidation.FAIL));
        s.client().listAllTools();
        assertThat(s.client().callTool("counted", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));
    }

    @Test
    void aSchemaChangeIsPickedUpByTheNextListing() throws Exception {
        Map<String, Object> strict = new LinkedHashMap<>(tool("t"));
        strict.put("outputSchema", SCHEMA);
        Map<String, Object> loose = new LinkedHashMap<>(tool("t"));
        loose.put("outputSchema", Map.of("type", "object"));
        List<Map<String, Object>> listings = new ArrayList<>(List.of(Map.of("tools", List.of(strict)),
                Map.of("tools", List.of(loose))));
        Session s = sessions.connected(Mode.INLINE, t -> t
                .on("tools/list", r -> listings.remove(0))
                .on("tools/call", r -> structured("x")), b -> b.outputSchemaValidation(OutputSchemaValidation.FAIL));
        s.client().listAllTools();
        assertThatThrownBy(() -> s.client().callTool("t", Map.of())).isInstanceOf(McpProtocolException.class);
        s.client().listAllTools();
        assertThat(s.client().callTool("t", Map.of()).structuredContent()).isEqualTo(Map.of("n", "x"));
    }

    /** Issue 26 item 15: a tool argument that is not a JSON value is refused with its path and nothing is sent. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void anArgumentThatIsNotAJsonValueIsRefusedAndNotSent(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> Map.of("content", List.of())), b -> b);
        Map<String, Object> item = new HashMap<>();
        item.put("when", new Thread(() -> { }));
        assertThatThrownBy(() -> s.client().callTool("t", Map.of("items", List.of("a", "b", item))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arguments.items[2].when: java.lang.Thread is not a JSON value");
        assertThatThrownBy(() -> s.client().callTool("t", Map.of("blob", new byte[] {1})))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arguments.blob: byte[] is not a JSON value");
        assertThat(s.server().requests("tools/call")).isEmpty();
        assertThat(s.client().callTool("t", Map.of("n", 1)).content()).isEmpty(); // the client stays usable
    }
}
