package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.McpRpcException;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The task rules this module owns, behind the core's one hook, on a real {@code McpClient} against a scripted
 * 2025-11-25 server (MODERN-ERA.md C.6): when a {@code tools/call} asks for a task (server capability, protocol
 * version, the tool's {@code execution.taskSupport}: {@code required} for a plain call, also {@code optional} for
 * {@code callToolAsTask}), a malformed task answer, and {@code -32602} on {@code tasks/*} as
 * {@link McpTaskNotFoundException} while the same code elsewhere stays a plain {@link McpRpcException}.
 */
@ExtendWith(LeakCheck.class)
class TasksOnClientTest {

    static final Map<String, Object> TASK_CAPS = Map.of("tools", Map.of(), "tasks", Map.of("list", Map.of(),
            "cancel", Map.of(), "requests", Map.of("tools", Map.of("call", Map.of()))));

    static Map<String, Object> text(String s) {
        return Map.of("content", List.of(Map.of("type", "text", "text", s)));
    }

    static Map<String, Object> tool(String name, String taskSupport) {
        return Map.of("name", name, "inputSchema", Map.of("type", "object"), "execution",
                Map.of("taskSupport", taskSupport));
    }

    /** A 2025-11-25 tasks server: tools with each execution.taskSupport; an augmented call creates task L1. */
    static ScriptedTransport server(Consumer<ScriptedTransport> extra) {
        ScriptedTransport t = ScriptedTransport.create().serverCapabilities(TASK_CAPS);
        t.on("tools/list", r -> Map.of("tools", List.of(tool("research", "required"), tool("maybe", "optional"),
                tool("never", "forbidden"), Map.of("name", "plain", "inputSchema", Map.of("type", "object")))));
        t.on("tools/call", r -> r.params().containsKey("task")
                ? Map.of("task", Map.of("taskId", "L1", "status", "working", "ttl", 300_000, "pollInterval", 1000))
                : text("sync"));
        t.on("tasks/result", r -> text("researched"));
        extra.accept(t);
        return t;
    }

    static List<String> augmented(ScriptedTransport t) {
        return t.requests("tools/call").stream().filter(r -> r.params().containsKey("task"))
                .map(r -> (String) r.params().get("name")).toList();
    }

    @Test
    void aPlainCallAsksForATaskOnlyForARequiredToolAndCallToolAsTaskAlsoForAnOptionalOne() throws Exception {
        McpTasks tasks = McpTasks.newBuilder().legacyTtl(Duration.ofMinutes(1)).build();
        ScriptedTransport t = server(x -> { });
        try (McpClient client = McpClient.newBuilder(t).taskSupport(tasks.support()).build()) {
            client.connect();
            assertThat(client.callTool("research", Map.of()).text()).isEqualTo("researched");
            // the params as decoded from the wire: a JSON number this small reads back as an Integer
            assertThat(t.requests("tools/call").get(0).params()).containsEntry("task", Map.of("ttl", 60_000));
            for (String name : List.of("maybe", "never", "plain")) {
                assertThat(client.callTool(name, Map.of()).text()).as(name).isEqualTo("sync");
            }
            assertThat(augmented(t)).containsExactly("research");
            McpTask optional = tasks.callToolAsTask("maybe", null, RequestOptions.DEFAULT);
            assertThat(optional.answeredAtOnce()).isFalse();
            assertThat(optional.id()).isEqualTo("L1");
            assertThat(tasks.callToolAsTask("never", null, RequestOptions.DEFAULT).answeredAtOnce()).isTrue();
            assertThat(augmented(t)).containsExactly("research", "maybe");
            assertThat(t.requests("tools/list")).as("one listing learnt every tool's taskSupport").hasSize(1);
            // a tool no listing describes is listed for once, not at every call
            client.callTool("unlisted", Map.of());
            client.callTool("unlisted", Map.of());
            assertThat(t.requests("tools/list")).hasSize(2);
        }
    }

    /**
     * Issue 30: the task support's requests for a task-augmented call pass the client's interceptors, each a pass of
     * its own on the caller's thread, naming the task the call's response carried.
     */
    @Test
    void theRequestsOfATaskPassTheInterceptorsNamingTheTaskTheCallsResponseCarried() throws Exception {
        McpTasks tasks = McpTasks.newBuilder().legacyTtl(Duration.ofMinutes(1)).build();
        ScriptedTransport t = server(x -> { });
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        String caller = Thread.currentThread().getName();
        try (McpClient client = McpClient.newBuilder(t).taskSupport(tasks.support()).addInterceptor(chain -> {
            dev.loommcp.intercept.McpResponse r = chain.proceed(chain.request());
            Object taskId = chain.request().params().map(p -> p.get("taskId")).orElse(null);
            Object created = r.result().get("task") instanceof Map<?, ?> task ? task.get("taskId") : null;
            seen.add(chain.request().method() + (taskId == null ? "" : " taskId=" + taskId)
                    + (created == null ? "" : " created=" + created)
                    + (Thread.currentThread().getName().equals(caller) ? "" : " on another thread"));
            return r;
        }).build()) {
            client.connect();
            assertThat(client.callTool("research", Map.of()).text()).isEqualTo("researched");
        }
        assertThat(seen).contains("tools/call created=L1", "tasks/result taskId=L1");
        assertThat(seen.indexOf("tools/call created=L1")).isLessThan(seen.indexOf("tasks/result taskId=L1"));
    }

    @Test
    void withoutTheServerCapabilityOrBefore20251125NothingIsAugmentedOrListed() throws Exception {
        for (Consumer<ScriptedTransport> server : List.<Consumer<ScriptedTransport>>of(
                x -> x.serverCapabilities(Map.of("tools", Map.of())), x -> x.protocolVersion("2025-06-18"))) {
            McpTasks tasks = McpTasks.create();
            ScriptedTransport t = server(server);
            try (McpClient client = McpClient.newBuilder(t).taskSupport(tasks.support()).build()) {
                client.connect();
                assertThat(client.callTool("research", Map.of()).text()).isEqualTo("sync");
                assertThat(tasks.callToolAsTask("maybe", null, RequestOptions.DEFAULT).answeredAtOnce()).isTrue();
                assertThat(augmented(t)).isEmpty();
                assertThat(t.requests("tools/list")).as("no look-up for a decision that cannot be yes").isEmpty();
            }
        }
    }

    @Test
    void aMalformedLegacyTaskIsAClearErrorNamingTheTool() throws Exception {
        McpTasks tasks = McpTasks.create();
        ScriptedTransport t = server(x -> x.on("tools/call", r -> Map.of("task", "L1")));
        try (McpClient client = McpClient.newBuilder(t).taskSupport(tasks.support()).build()) {
            client.connect();
            assertThatThrownBy(() -> client.callTool("research", Map.of())).isInstanceOf(McpProtocolException.class)
                    .hasMessageContaining("research").hasMessageContaining("taskId");
            assertThat(t.requests("tasks/result")).isEmpty();
        }
    }

    @Test
    void invalidParamsOnATaskLookupIsTaskNotFoundAndElsewhereAPlainRpcError() throws Exception {
        McpTasks tasks = McpTasks.create();
        ScriptedTransport t = server(x -> {
            for (String m : List.of("tasks/get", "tasks/cancel", "tasks/result", "tasks/list")) {
                x.on(m, r -> new JsonRpcError(-32602, "Task not found", null));
            }
        });
        try (McpClient client = McpClient.newBuilder(t).taskSupport(tasks.support()).build()) {
            client.connect();
            McpTask unknown = tasks.task("nope");
            assertThatThrownBy(() -> unknown.get(RequestOptions.DEFAULT)).isInstanceOfSatisfying(
                    McpTaskNotFoundException.class, e -> {
                        assertThat(e.taskId()).isEqualTo("nope");
                        assertThat(e.method()).isEqualTo("tasks/get");
                        assertThat(e.getMessage()).contains("-32602").contains("task nope");
                    });
            for (String method : List.of("tasks/cancel", "tasks/result")) {
                assertThatThrownBy(() -> TaskRequests.send(tasks.channel(), method, Map.of("taskId", "nope"),
                        RequestOptions.DEFAULT)).as(method).isInstanceOf(McpTaskNotFoundException.class);
            }
            assertThatThrownBy(() -> tasks.list(RequestOptions.DEFAULT)).isExactlyInstanceOf(McpRpcException.class);
            // the client's own raw request knows nothing of tasks
            assertThatThrownBy(() -> client.request("tasks/get", Map.of("taskId", "nope"), RequestOptions.DEFAULT))
                    .isExactlyInstanceOf(McpRpcException.class);
            JsonRpcMessage.Request get = t.requests("tasks/get").get(0);
            assertThat(get.params()).containsEntry("taskId", "nope");
        }
    }
}
