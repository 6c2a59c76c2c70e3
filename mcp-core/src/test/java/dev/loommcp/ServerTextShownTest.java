package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcError;
import org.junit.jupiter.api.Test;

/**
 * Server-chosen text in exception messages (break test item 13): a JSON-RPC error's message is shown with its control
 * characters escaped and capped; the accessor keeps the exact value. (The task exceptions' ids: mcp-tasks'
 * {@code TaskExceptionsTest}.)
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
}
