package dev.loommcp.it;

import dev.loommcp.Registration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpRpcException;
import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpClient;
import dev.loommcp.McpTimeoutException;
import dev.loommcp.McpUnsupportedInEraException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.Deadline;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTaskFailedException;
import dev.loommcp.tasks.McpTaskNotFoundException;
import dev.loommcp.tasks.TaskRecord;
import dev.loommcp.tasks.TaskSnapshot;
import dev.loommcp.tasks.TaskStatus;
import dev.loommcp.testing.RecordingTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The tasks extension {@code io.modelcontextprotocol/tasks} (MODERN-ERA.md C.5, items named in each test) end to end
 * against the tasks fixture ({@code test-servers/tasks-fixture.mjs}), in the modern era. Subclasses run it over
 * stdio and over Streamable HTTP.
 */
abstract class TasksExtensionContract extends TaskClients {

    /** How long any single task in these tests may take before the test fails (a loaded 2-core machine). */
    static final Duration BOUND = Duration.ofSeconds(60);

    @Override
    protected ProtocolMode mode() {
        return ProtocolMode.MODERN;
    }

    static String text(CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        r.content().forEach(c -> {
            if (c instanceof TextContent t) {
                sb.append(t.text());
            }
        });
        return sb.toString();
    }

    /** C.5.1: the extension on every request of a client with task support (tools/call, tasks/*, listen). */
    @Test
    void everyRequestOfAClientWithTaskSupportDeclaresTheExtension() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 0.3), RequestOptions.DEFAULT);
        task.get(RequestOptions.DEFAULT);
        assertThat(text(task.await(Deadline.after(BOUND)))).contains("computed");
        c.client().listTools(null, RequestOptions.DEFAULT);
        List<JsonRpcMessage.Request> sent = c.requests().stream()
                .filter(r -> !r.method().equals("server/discover")).toList();
        assertThat(sent).extracting(JsonRpcMessage.Request::method).contains("tools/call", "tasks/get",
                "tools/list");
        assertThat(sent).allSatisfy(r -> assertThat(declaresExtension(r)).as(r.method()).isTrue());
        // C.6.11 the other way round: never the legacy client tasks capability
        assertThat(sent).allSatisfy(r -> assertThat(clientCapabilities(r)).doesNotContainKey("tasks"));
    }

    /** C.5.1 and the fixture's rule: a client without task support never declares it, and gets no task. */
    @Test
    void aClientWithoutTaskSupportGetsAPlainResultOrMissingCapability() throws Exception {
        RecordingTransport[] rec = new RecordingTransport[1];
        McpClient plain = connectWithoutTasks(rec);
        CallToolResult r = plain.callTool("slow_compute", Map.of("seconds", 0.1), RequestOptions.DEFAULT);
        assertThat(text(r)).contains("computed");
        assertThatThrownBy(() -> plain.callTool("failing_job", Map.of(), RequestOptions.DEFAULT))
                .isInstanceOfSatisfying(McpRpcException.class, e -> assertThat(e.code()).isEqualTo(-32021))
                .hasMessageContaining(EXTENSION);
        for (JsonRpcMessage m : rec[0].sent()) {
            if (m instanceof JsonRpcMessage.Request req) {
                assertThat(declaresExtension(req)).as(req.method()).isFalse();
            }
        }
    }

    /** C.5.3, C.5.12: the flat CreateTaskResult becomes a handle; the task is recorded in the store. */
    @Test
    void aTaskHandleCarriesTheFlatCreateTaskResultAndIsStored() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 5), RequestOptions.DEFAULT);
        try {
            assertThat(task.era()).isEqualTo(Era.MODERN);
            assertThat(task.toolName().orElseThrow()).isEqualTo("slow_compute");
            TaskSnapshot s = task.snapshot();
            assertThat(s.taskId()).isEqualTo(task.id()).isNotBlank();
            assertThat(s.status()).isIn(TaskStatus.WORKING, TaskStatus.COMPLETED);
            assertThat(s.createdAt()).isNotNull();
            assertThat(s.pollInterval()).isNotNull();
            assertThat(s.ttl()).isNotNull();
            List<TaskRecord> stored = c.tasks().store().list(c.recording().serverKey().orElseThrow());
            assertThat(stored).extracting(TaskRecord::taskId).contains(task.id());
        } finally {
            task.cancel(RequestOptions.DEFAULT);
        }
    }

    /** C.5.4, C.5.5: tasks/get reports working, then completed with the result; terminal stays terminal. */
    @Test
    void getReportsWorkingThenCompletedAndTerminalNeverChanges() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 1), RequestOptions.DEFAULT);
        assertThat(task.get(RequestOptions.DEFAULT).status()).isIn(TaskStatus.WORKING, TaskStatus.COMPLETED);
        CallToolResult r = task.await(Deadline.after(BOUND));
        assertThat(text(r)).contains("computed after 1000 ms");
        TaskSnapshot done = task.get(RequestOptions.DEFAULT);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.result()).containsKey("content");
        assertThat(task.get(RequestOptions.DEFAULT).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    /** C.5.4: an isError tool result is still completed in the extension (not failed). */
    @Test
    void anIsErrorResultIsCompletedNotFailed() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("failing_job", Map.of(), RequestOptions.DEFAULT);
        CallToolResult r = task.await(Deadline.after(BOUND));
        assertThat(r.error()).isTrue();
        assertThat(task.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    /** C.5.4, C.5.11: failed with a JSON-RPC error → McpTaskFailedException carrying the task's error. */
    @Test
    void aFailedTaskThrowsItsJsonRpcError() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("protocol_error_job", Map.of(), RequestOptions.DEFAULT);
        assertThatThrownBy(() -> task.await(Deadline.after(BOUND)))
                .isInstanceOfSatisfying(McpTaskFailedException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32603);
                    assertThat(e.taskId()).isEqualTo(task.id());
                    assertThat(e.method()).isEqualTo("tools/call");
                });
        assertThat(task.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(task.snapshot().error().code()).isEqualTo(-32603);
        // the plain blocking call surfaces the same error
        assertThatThrownBy(() -> c.client().callTool("protocol_error_job", Map.of(), RequestOptions.DEFAULT))
                .isInstanceOf(McpTaskFailedException.class);
    }

    /** The fixture's counts of tasks, tasks/get calls and early polls (per server process). */
    static Map<String, Object> pollStats(Connected c) throws Exception {
        return map(dev.loommcp.internal.json.Json.read(text(c.client().callTool("poll_stats", Map.of(),
                RequestOptions.DEFAULT))));
    }

    /** C.5.6: the interval a server changes mid-task is the one kept (pollMsLater). */
    @Test
    void aChangedIntervalIsFollowed() throws Exception {
        Connected c = connect(t -> t.push(false), b -> { });
        Object earlyBefore = pollStats(c).get("early");
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 2, "pollMs", 100,
                "pollMsLater", 700), RequestOptions.DEFAULT);
        task.await(Deadline.after(BOUND));
        assertThat(task.snapshot().pollInterval()).isEqualTo(Duration.ofMillis(700));
        assertThat(pollStats(c).get("early")).isEqualTo(earlyBefore);
    }

    /** C.5.6: polls never come faster than the server's pollIntervalMs. */
    @Test
    void pollsKeepTheServersInterval() throws Exception {
        Connected c = connect(t -> t.push(false), b -> { });
        Object earlyBefore = pollStats(c).get("early");
        long start = System.nanoTime();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 2, "pollMs", 400),
                RequestOptions.DEFAULT);
        assertThat(task.snapshot().pollInterval()).isEqualTo(Duration.ofMillis(400));
        task.await(Deadline.after(BOUND));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        int polls = c.requests("tasks/get").size();
        // an upper bound only (a slow machine polls less, never more): one per interval, plus the first and last
        assertThat(polls).as("tasks/get over %d ms at 400 ms", elapsedMs).isBetween(1, (int) (elapsedMs / 400) + 2);
        // the server's own count: no tasks/get came sooner than the interval it reported (10% tolerance)
        assertThat(pollStats(c).get("early")).isEqualTo(earlyBefore);
    }

    /** C.5.6: the TTL backstop: past createdAt + ttlMs with nothing terminal, the wait gives up naming the TTL. */
    @Test
    void aTaskPastItsTtlEndsTheWait() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 60, "ttlMs", 1500),
                RequestOptions.DEFAULT);
        assertThat(task.snapshot().ttl()).isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> task.await(Deadline.after(BOUND)))
                .isInstanceOf(McpTimeoutException.class)
                .hasMessageContaining(task.id())
                .hasMessageContaining("TTL");
    }

    /** C.5.7: input_required answered through the elicitation handler, each key once (one key). */
    @Test
    void inputRequiredIsAnsweredThroughTheElicitationHandler() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        Connected c = connect(b -> b.elicitationHandler(req -> {
            asked.incrementAndGet();
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        CallToolResult r = c.client().callTool("confirm_delete", Map.of("filename", "a.txt"),
                RequestOptions.ofTimeout(BOUND));
        assertThat(text(r)).isEqualTo("deleted a.txt");
        assertThat(asked).hasValue(1);
        List<JsonRpcMessage.Request> updates = c.requests("tasks/update");
        assertThat(updates).hasSize(1);
        assertThat(map(updates.getFirst().params().get("inputResponses"))).hasSize(1);
    }

    /** C.5.7: two keys at once; a partial update keeps the task waiting; no key is ever answered twice. */
    @Test
    void twoInputKeysAreEachAnsweredExactlyOnceAcrossPollsAndPartialUpdates() throws Exception {
        Connected c = connect(t -> t.push(false), b -> { });
        McpTask task = c.tasks().callToolAsTask("multi_input", Map.of(), RequestOptions.DEFAULT);
        TaskSnapshot s = task.get(RequestOptions.DEFAULT);
        for (int i = 0; i < 100 && s.status() == TaskStatus.WORKING; i++) {
            Thread.sleep(100);
            s = task.get(RequestOptions.DEFAULT);
        }
        assertThat(s.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(s.inputRequests()).hasSize(2);
        List<String> keys = new ArrayList<>(s.inputRequests().keySet());
        String nameKey = keys.stream().filter(k -> k.startsWith("name-")).findFirst().orElseThrow();
        String confirmKey = keys.stream().filter(k -> k.startsWith("confirm-")).findFirst().orElseThrow();
        task.update(Map.of(nameKey, Map.of("action", "accept", "content", Map.of("name", "first"))),
                RequestOptions.DEFAULT);
        TaskSnapshot after = task.get(RequestOptions.DEFAULT);
        assertThat(after.status()).isEqualTo(TaskStatus.INPUT_REQUIRED);
        assertThat(after.inputRequests()).containsOnlyKeys(confirmKey);
        // a key already answered is not sent again, even when given again
        task.update(Map.of(nameKey, Map.of("action", "accept", "content", Map.of("name", "again")),
                confirmKey, Map.of("action", "accept", "content", Map.of("confirm", true))),
                RequestOptions.DEFAULT);
        CallToolResult r = task.await(Deadline.after(BOUND));
        assertThat(text(r)).isEqualTo("name=first confirm=true");
        List<String> answered = new ArrayList<>();
        for (JsonRpcMessage.Request u : c.requests("tasks/update")) {
            answered.addAll(map(u.params().get("inputResponses")).keySet());
        }
        assertThat(answered).containsExactlyInAnyOrderElementsOf(keys);
    }

    /** C.5.7 via the driver: the handler answers both keys, each exactly once across polls. */
    @Test
    void theDriverAnswersBothKeysOnceEach() throws Exception {
        List<String> questions = new CopyOnWriteArrayList<>();
        Connected c = connect(b -> b.elicitationHandler(req -> {
            questions.add(req.message());
            return req.requestedSchema() != null && String.valueOf(req.requestedSchema()).contains("confirm")
                    ? ElicitResult.accept(Map.of("confirm", true)) : ElicitResult.accept(Map.of("name", "Alice"));
        }));
        CallToolResult r = c.client().callTool("multi_input", Map.of(), RequestOptions.ofTimeout(BOUND));
        assertThat(text(r)).isEqualTo("name=Alice confirm=true");
        assertThat(questions).hasSize(2);
        List<String> answered = new ArrayList<>();
        for (JsonRpcMessage.Request u : c.requests("tasks/update")) {
            answered.addAll(map(u.params().get("inputResponses")).keySet());
        }
        assertThat(answered).hasSize(2).doesNotHaveDuplicates();
    }

    /** C.5.7: MRTR input before the task exists (its own namespace), then the task. */
    @Test
    void mrtrInputBeforeTaskCreationThenTheTask() throws Exception {
        Connected c = connect(b -> b.elicitationHandler(req -> ElicitResult.accept(Map.of("name", "Alice"))));
        CallToolResult r = c.client().callTool("test_tool_with_task", Map.of(), RequestOptions.ofTimeout(BOUND));
        assertThat(text(r)).isEqualTo("Hello, Alice! (gathered before the task)");
    }

    /** C.5.8: tasks/cancel, never notifications/cancelled; the task ends cancelled; await says so. */
    @Test
    void cancelSendsTasksCancelAndTheTaskEndsCancelled() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 30), RequestOptions.DEFAULT);
        task.cancel(RequestOptions.DEFAULT);
        TaskSnapshot s = task.get(RequestOptions.DEFAULT);
        assertThat(s.status()).isEqualTo(TaskStatus.CANCELLED);
        assertThatThrownBy(() -> task.await(Deadline.after(BOUND))).isInstanceOf(McpCancelledException.class)
                .hasMessageContaining(task.id());
        // cancelling a terminal task sends nothing more
        int before = c.requests("tasks/cancel").size();
        task.cancel(RequestOptions.DEFAULT);
        assertThat(c.requests("tasks/cancel")).hasSize(before).hasSize(1);
        assertThat(c.cancelledRequests()).isEmpty();
    }

    /** C.5.8, C.5.12: the caller's deadline passes → tasks/cancel, then McpTimeoutException naming the task. */
    @Test
    void aPassedDeadlineCancelsTheTask() throws Exception {
        Connected c = connect();
        assertThatThrownBy(() -> c.client().callTool("slow_compute", Map.of("seconds", 30),
                RequestOptions.ofTimeout(Duration.ofSeconds(2))))
                .isInstanceOf(McpTimeoutException.class);
        List<JsonRpcMessage.Request> cancels = c.requests("tasks/cancel");
        assertThat(cancels).hasSize(1);
        String id = (String) cancels.getFirst().params().get("taskId");
        assertThat(c.tasks().task(id).get(RequestOptions.DEFAULT).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(c.cancelledRequests()).isEmpty();
    }

    /** C.5.8: an interrupted waiter cancels the task. */
    @Test
    void anInterruptedAwaitCancelsTheTask() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 30), RequestOptions.DEFAULT);
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                task.await(Deadline.after(BOUND));
            } catch (InterruptedException expected) {
                // the point
            }
        });
        // wait until the waiter is parked in await (at least one poll went out), then interrupt it
        for (int i = 0; i < 600 && c.requests("tasks/get").isEmpty(); i++) {
            Thread.sleep(50);
        }
        waiter.interrupt();
        waiter.join(BOUND);
        assertThat(waiter.isAlive()).isFalse();
        assertThat(c.requests("tasks/cancel")).hasSize(1);
        assertThat(task.get(RequestOptions.DEFAULT).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    /** C.5.9: push through subscriptions/listen with taskIds; status changes reach the listener. */
    @Test
    @SuppressWarnings("unchecked")
    void pushedStatusReachesTheListener() throws Exception {
        Connected c = connect(t -> t.push(true), b -> { });
        McpTask task = c.tasks().callToolAsTask("slow_compute", Map.of("seconds", 1, "pollMs", 5000),
                RequestOptions.DEFAULT);
        List<TaskStatus> seen = new CopyOnWriteArrayList<>();
        try (Registration reg = task.addListener((t, s) -> seen.add(s.status()))) {
            task.await(Deadline.after(BOUND));
        }
        assertThat(seen).contains(TaskStatus.COMPLETED);
        List<JsonRpcMessage.Request> listens = c.requests("subscriptions/listen");
        assertThat(listens).anySatisfy(l -> {
            assertThat(declaresExtension(l)).isTrue();
            assertThat((List<Object>) map(l.params().get("notifications")).get("taskIds")).contains((Object) task.id());
        });
    }

    /** C.5.10 (HTTP: Mcp-Name is the task id; the fixture refuses a mismatch), C.5.11: unknown id → -32602. */
    @Test
    void anUnknownTaskIsNotFound() throws Exception {
        Connected c = connect();
        McpTask ghost = c.tasks().task("no-such-task");
        assertThatThrownBy(() -> ghost.get(RequestOptions.DEFAULT))
                .isInstanceOfSatisfying(McpTaskNotFoundException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32602);
                    assertThat(e.taskId()).isEqualTo("no-such-task");
                });
        assertThatThrownBy(() -> ghost.cancel(RequestOptions.DEFAULT)).isInstanceOf(McpTaskNotFoundException.class);
    }

    /** C.5.11: tasks/list does not exist in the extension: refused before anything is sent. */
    @Test
    void listIsRefusedInTheModernEra() throws Exception {
        Connected c = connect();
        assertThatThrownBy(() -> c.tasks().list(RequestOptions.DEFAULT))
                .isInstanceOf(McpUnsupportedInEraException.class);
        assertThat(c.requests("tasks/list")).isEmpty();
    }

    /** C.5.12: the plain blocking callTool hides the whole lifecycle. */
    @Test
    void plainCallToolDrivesATaskToItsResult() throws Exception {
        Connected c = connect();
        CallToolResult r = c.client().callTool("slow_compute", Map.of("seconds", 1), RequestOptions.ofTimeout(BOUND));
        assertThat(text(r)).contains("computed after 1000 ms");
        assertThat(c.requests("tasks/get")).isNotEmpty();
        CallToolResult quick = c.client().callTool("quick_task", Map.of(), RequestOptions.ofTimeout(BOUND));
        assertThat(quick.error()).isFalse();
    }
}
