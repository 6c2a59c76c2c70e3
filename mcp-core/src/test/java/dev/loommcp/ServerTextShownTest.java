package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcError;
import org.junit.jupiter.api.Test;

/**
 * Server-chosen text in exception messages (break test item 13): a JSON-RPC error's message and a task's id are shown
 * with their control characters escaped, an id capped at 64 characters; the accessors keep the exact values.
 */
class ServerTextShownTest {

    private static final String EVIL = "../../x\n\u0000\u2028" + "A".repeat(20_000);

    @Test
    void anErrorMessageIsEscapedAndCappedInTheExceptionMessageOnly() {
        McpRpcException e = new McpRpcException("tasks/get", null, JsonRpcError.of(-32000, "line one\nline two\u0000"));
        assertThat(e.getMessage()).contains("line one\\u000aline two\\u0000").doesNotContain("\n", "\u0000");
        assertThat(e.errorMessage()).isEqualTo("line one\nline two\u0000");
        McpRpcException longer = new McpRpcException("tasks/get", null, JsonRpcError.of(-32000, EVIL));
        assertThat(longer.getMessage()).doesNotContain("\n").contains("more characters").hasSizeLessThan(2_200);
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
    }
}
