package dev.loommcp.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpRpcException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What cannot be written as JSON fails with a clear IllegalArgumentException, never a Jackson type. */
class EncodeFailureTest {

    @Test
    void aCyclicArgumentIsRefusedClearly() {
        Map<String, Object> cyclic = new HashMap<>();
        cyclic.put("self", cyclic);
        assertThatThrownBy(() -> JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(1), "tools/call",
                Map.of("arguments", cyclic))))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tools/call")
                .hasMessageContaining("plain JSON")
                .hasNoCause();
    }

    @Test
    void aNullMapKeyIsRefusedClearly() {
        Map<String, Object> nullKey = new HashMap<>();
        nullKey.put(null, "secret-value");
        assertThatThrownBy(() -> JsonRpcCodec.encode(new JsonRpcMessage.Request(RequestId.of(2), "tools/call",
                Map.of("arguments", nullKey))))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("secret-value");
    }

    @Test
    void aHugeServerErrorMessageIsShortenedInTheExceptionMessageOnly() {
        String huge = "x".repeat(5_000_000);
        McpRpcException e = new McpRpcException("tools/list", RequestId.of(3), JsonRpcError.of(-32603, huge));
        assertThat(e.getMessage().length()).isLessThan(3_000);
        assertThat(e.getMessage()).contains("more characters");
        assertThat(e.errorMessage()).hasSize(5_000_000);
    }
}
