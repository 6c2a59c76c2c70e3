package dev.loommcp.it;

import dev.loommcp.Registration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.config.Era;
import dev.loommcp.McpCancelledException;
import dev.loommcp.McpRpcException;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.Deadline;
import dev.loommcp.tasks.McpTask;
import dev.loommcp.tasks.McpTaskNotFoundException;
import dev.loommcp.tasks.TaskSnapshot;
import dev.loommcp.tasks.TaskStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The experimental tasks of MCP 2025-11-25 (MODERN-ERA.md C.6, items named in each test) end to end against the
 * reference server-everything and its {@code simulate-research-query} tool (four stages of about a second each;
 * {@code execution.taskSupport: "required"}), in the legacy era. Subclasses run it over stdio and over Streamable
 * HTTP.
 */
abstract class LegacyTasksContract extends TaskClients {

    static final String TOOL = "simulate-research-query";
    static final Duration BOUND = Duration.ofSeconds(90);

    @Override
    protected ProtocolMode mode() {
        return ProtocolMode.LEGACY;
    }

    static Map<String, Object> research(String topic) {
        return Map.of("topic", topic);
    }

    /** C.6.1, C.6.11: the server declares tasks; the client declares neither tasks nor the extension. */
    @Test
    void theServerDeclaresTasksAndTheClientDeclaresNone() throws Exception {
        Connected c = connect();
        assertThat(c.client().era().orElseThrow()).isEqualTo(Era.LEGACY);
        assertThat(c.client().serverCapabilities().orElseThrow().tasks()).containsKey("requests");
        JsonRpcMessage.Request init = c.requests("initialize").getFirst();
        Map<String, Object> caps = map(init.params().get("capabilities"));
        assertThat(caps).doesNotContainKey("tasks");
        assertThat(caps.get("extensions") == null || !map(caps.get("extensions")).containsKey(EXTENSION)).isTrue();
    }

    /** C.6.2, C.6.3, C.6.5: a required-task tool is augmented by the plain call, driven to its result. */
    @Test
    void plainCallToolAugmentsARequiredTaskToolAndReturnsItsResult() throws Exception {
        Connected c = connect();
        CallToolResult r = c.client().callTool(TOOL, research("virtual threads"), RequestOptions.ofTimeout(BOUND));
        assertThat(r.error()).isFalse();
        assertThat(TasksExtensionContract.text(r)).contains("Research Report").contains("virtual threads");
        JsonRpcMessage.Request call = c.requests("tools/call").getFirst();
        assertThat(call.params()).containsKey("task");
    }

    /** C.6.2, C.6.10: without task support a required-task tool is refused (server-everything: an isError result). */
    @Test
    void aClientWithoutTaskSupportIsRefusedTheRequiredTaskTool() throws Exception {
        dev.loommcp.testing.RecordingTransport[] rec = new dev.loommcp.testing.RecordingTransport[1];
        dev.loommcp.McpClient plain = connectWithoutTasks(rec);
        try {
            CallToolResult r = plain.callTool(TOOL, research("plain"), RequestOptions.ofTimeout(BOUND));
            // the spec says a -32601 error; server-everything answers with an isError result: both are tolerated
            assertThat(r.error()).isTrue();
            assertThat(TasksExtensionContract.text(r)).contains("requires task augmentation");
        } catch (McpRpcException e) {
            assertThat(e.code()).isIn(-32601, -32600);
        }
        JsonRpcMessage.Request call = rec[0].sent().stream().filter(JsonRpcMessage.Request.class::isInstance)
                .map(JsonRpcMessage.Request.class::cast).filter(q -> q.method().equals("tools/call")).findFirst()
                .orElseThrow();
        assertThat(call.params()).doesNotContainKey("task");
    }

    /** C.6.2: a tool without execution.taskSupport is never augmented; its handle is complete at once. */
    @Test
    void aToolWithoutTaskSupportIsNeverAugmented() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask("echo", Map.of("message", "hi"), RequestOptions.DEFAULT);
        assertThat(task.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(TasksExtensionContract.text(task.await(Deadline.after(BOUND)))).contains("hi");
        assertThat(c.requests("tools/call").getFirst().params()).doesNotContainKey("task");
    }

    /** C.6.3: task {ttl} asked, the nested CreateTaskResult read (the server overrides the ttl). */
    @Test
    void theNestedCreateTaskResultBecomesAHandle() throws Exception {
        Connected c = connect(t -> t.legacyTtl(Duration.ofSeconds(60)), b -> { });
        McpTask task = c.tasks().callToolAsTask(TOOL, research("ttl"), RequestOptions.DEFAULT);
        try {
            assertThat(map(c.requests("tools/call").getFirst().params().get("task"))).containsEntry("ttl", 60000L);
            TaskSnapshot s = task.snapshot();
            assertThat(s.era()).isEqualTo(Era.LEGACY);
            assertThat(s.status()).isEqualTo(TaskStatus.WORKING);
            assertThat(s.ttl()).isEqualTo(Duration.ofMillis(300000));
            assertThat(s.pollInterval()).isEqualTo(Duration.ofSeconds(1));
            assertThat(s.createdAt()).isNotNull();
        } finally {
            task.cancel(RequestOptions.DEFAULT);
        }
    }

    /** C.6.4: tasks/get gives the flat Task; tasks/list lists it. */
    @Test
    void getAndListSeeTheTask() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask(TOOL, research("listing"), RequestOptions.DEFAULT);
        try {
            TaskSnapshot s = task.get(RequestOptions.DEFAULT);
            assertThat(s.taskId()).isEqualTo(task.id());
            assertThat(s.status()).isIn(TaskStatus.WORKING, TaskStatus.COMPLETED);
            List<TaskSnapshot> all = c.tasks().list(RequestOptions.DEFAULT);
            assertThat(all).extracting(TaskSnapshot::taskId).contains(task.id());
        } finally {
            task.cancel(RequestOptions.DEFAULT);
        }
    }

    /** C.6.5: await uses the blocking tasks/result (own long timeout), whose result carries related-task. */
    @Test
    void awaitTakesTheResultFromTasksResult() throws Exception {
        Connected c = connect(b -> b.requestTimeout(Duration.ofSeconds(2)));
        McpTask task = c.tasks().callToolAsTask(TOOL, research("result"), RequestOptions.DEFAULT);
        // the research takes about 4 s: longer than the client's request timeout, which tasks/result must not use
        CallToolResult r = task.await(Deadline.after(BOUND));
        assertThat(TasksExtensionContract.text(r)).contains("Research Report");
        assertThat(c.requests("tasks/result")).isNotEmpty();
        assertThat(task.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    /** C.6.6: tasks/cancel on a running task → cancelled; a terminal task's cancel is -32602 on the wire. */
    @Test
    void cancelEndsTheTaskCancelled() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask(TOOL, research("cancel"), RequestOptions.DEFAULT);
        task.cancel(RequestOptions.DEFAULT);
        assertThat(task.get(RequestOptions.DEFAULT).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThatThrownBy(() -> task.await(Deadline.after(BOUND))).isInstanceOf(McpCancelledException.class);
        // the handle knows it is terminal: nothing more is sent
        task.cancel(RequestOptions.DEFAULT);
        assertThat(c.requests("tasks/cancel")).hasSize(1);
        assertThat(c.cancelledRequests()).isEmpty();
        // the server itself refuses to cancel a terminal task with -32602
        assertThatThrownBy(() -> c.client().request("tasks/cancel", Map.of("taskId", task.id()),
                RequestOptions.DEFAULT))
                .isInstanceOfSatisfying(McpRpcException.class, e -> assertThat(e.code()).isEqualTo(-32602));
    }

    /** C.6.7, C.6.8: status changes reach the listener (notifications/tasks/status only as a hint). */
    @Test
    void statusChangesReachTheListener() throws Exception {
        Connected c = connect();
        McpTask task = c.tasks().callToolAsTask(TOOL, research("listener"), RequestOptions.DEFAULT);
        List<TaskStatus> seen = new CopyOnWriteArrayList<>();
        try (Registration reg = task.addListener((t, s) -> seen.add(s.status()))) {
            task.await(Deadline.after(BOUND));
        }
        // listeners are told on the client's event thread: await may return before the last one ran
        org.awaitility.Awaitility.await().atMost(BOUND).until(() -> seen.contains(TaskStatus.COMPLETED));
        assertThat(task.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    /** C.6.9: input_required: the elicitation arrives as a server request (related-task), answered by the handler. */
    @Test
    void inputRequiredArrivesAsAnElicitationRequest() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        Connected c = connect(b -> b.elicitationHandler(req -> {
            asked.add(req.message());
            return ElicitResult.accept(Map.of("interpretation", "technical"));
        }));
        CallToolResult r = c.client().callTool(TOOL, Map.of("topic", "python", "ambiguous", true),
                RequestOptions.ofTimeout(BOUND));
        assertThat(asked).hasSize(1);
        assertThat(asked.getFirst()).contains("python");
        assertThat(TasksExtensionContract.text(r)).contains("technical");
    }

    /** C.6.10: an unknown task id → -32602 → McpTaskNotFoundException. */
    @Test
    void anUnknownTaskIsNotFound() throws Exception {
        Connected c = connect();
        assertThatThrownBy(() -> c.tasks().task("nope").get(RequestOptions.DEFAULT))
                .isInstanceOfSatisfying(McpTaskNotFoundException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32602);
                    assertThat(e.taskId()).isEqualTo("nope");
                });
    }
}
