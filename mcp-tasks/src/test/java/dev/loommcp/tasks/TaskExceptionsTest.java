package dev.loommcp.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpException;
import dev.loommcp.McpRpcException;
import dev.loommcp.jsonrpc.JsonRpcError;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The task exceptions, owned by this module (they were the core's): what their messages name, server-chosen text
 * escaped and capped there (break test item 13), the exact values in the accessors; and the {@code -32602} rule of
 * {@link TaskRequests} that makes {@link McpTaskNotFoundException} out of a plain JSON-RPC error.
 */
class TaskExceptionsTest {

    private static final String EVIL = "../../x\n\u0000\u2028" + "A".repeat(20_000);

    @Test
    void theTaskExceptionsNameTheirTask() {
        JsonRpcError boom = new JsonRpcError(-32603, "simulated internal error", null);
        assertThat(new McpTaskFailedException("tools/call", "t9", null, boom).getMessage())
                .isEqualTo("task t9 (tools/call) ended failed with JSON-RPC error -32603: simulated internal error");
        McpTaskFailedException named = new McpTaskFailedException("tools/call", "failing_job", "t9", null, boom);
        assertThat(named.getMessage()).isEqualTo("task t9 (tools/call failing_job) ended failed with JSON-RPC error"
                + " -32603: simulated internal error");
        assertThat(named.taskId()).isEqualTo("t9");
        assertThat(named.toolName().orElseThrow()).isEqualTo("failing_job");
        assertThat(named.method()).isEqualTo("tools/call");
        assertThat(named.code()).isEqualTo(-32603);
        assertThat(new McpTaskNotFoundException("tasks/get", null, null, boom).getMessage())
                .doesNotContain("(task");
        // still JSON-RPC errors of the core's hierarchy: a switch over McpException's kinds catches them there
        McpException e = named;
        assertThat(e).isInstanceOf(McpRpcException.class);
    }

    @Test
    void aTaskIdIsEscapedAndCappedInTheTaskExceptions() {
        McpTaskNotFoundException notFound = new McpTaskNotFoundException("tasks/get", EVIL, null,
                JsonRpcError.of(JsonRpcError.INVALID_PARAMS, "unknown task"));
        assertThat(notFound.getMessage()).contains("(task ../../x\\u000a\\u0000\\u2028AAA").endsWith("...)")
                .hasSizeLessThan(200);
        assertThat(notFound.taskId()).isEqualTo(EVIL);
        McpTaskFailedException failed = new McpTaskFailedException("tools/call", "job", EVIL, null,
                JsonRpcError.of(-32603, "boom"));
        assertThat(failed.getMessage()).doesNotContain("\n", "\u0000").hasSizeLessThan(200);
        assertThat(failed.taskId()).isEqualTo(EVIL);
        McpTaskFailedException longMessage = new McpTaskFailedException("tools/call", "job", "t1", null,
                JsonRpcError.of(-32603, EVIL));
        assertThat(longMessage.getMessage()).doesNotContain("\n").contains("more characters").hasSizeLessThan(2_200);
        assertThat(longMessage.errorMessage()).isEqualTo(EVIL);
    }

    @Test
    void invalidParamsOfATaskLookupIsTaskNotFoundAndNothingElseIs() {
        for (String method : new String[] {"tasks/get", "tasks/update", "tasks/cancel", "tasks/result"}) {
            McpRpcException plain = new McpRpcException(method, null, JsonRpcError.of(-32602, "Task not found"));
            McpRpcException typed = TaskRequests.notFound(method, Map.of("taskId", "nope"), plain);
            assertThat(typed).as(method).isInstanceOfSatisfying(McpTaskNotFoundException.class, t -> {
                assertThat(t.taskId()).isEqualTo("nope");
                assertThat(t.code()).isEqualTo(-32602);
                assertThat(t.method()).isEqualTo(method);
                assertThat(t.getMessage()).contains(method).contains("-32602").contains("task nope");
                assertThat(t.getStackTrace()).isEqualTo(plain.getStackTrace());
            });
            McpRpcException other = new McpRpcException(method, null, JsonRpcError.of(-32603, "boom"));
            assertThat(TaskRequests.notFound(method, Map.of("taskId", "nope"), other)).isSameAs(other);
        }
        for (String method : new String[] {"tasks/list", "tools/call"}) {
            McpRpcException plain = new McpRpcException(method, null, JsonRpcError.of(-32602, "bad"));
            assertThat(TaskRequests.notFound(method, Map.of(), plain)).as(method).isSameAs(plain);
        }
    }
}
