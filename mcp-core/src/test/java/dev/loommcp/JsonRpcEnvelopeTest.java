package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON-RPC envelope records ({@code dev.loommcp.jsonrpc}) and {@link McpRpcException}. */
class JsonRpcEnvelopeTest {

    @Test
    void requestIdsOfDifferentKindsAreNeverEqual() {
        assertThat(RequestId.of("1")).isNotEqualTo(RequestId.of(1));
        assertThat(RequestId.of("1")).isEqualTo(RequestId.of("1")).hasSameHashCodeAs(RequestId.of("1"));
        assertThat(RequestId.of(1)).isEqualTo(RequestId.of(1L));
        assertThat(RequestId.of("1").value()).isEqualTo("1");
        assertThat(RequestId.of(1).value()).isEqualTo(1L);
        assertThat(RequestId.of("1")).hasToString("\"1\"");
        assertThat(RequestId.of(1)).hasToString("1");
        assertThatThrownBy(() -> RequestId.of((String) null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void envelopesRefuseMissingRequiredParts() {
        assertThatThrownBy(() -> new JsonRpcMessage.Request(null, "m", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new JsonRpcMessage.Request(RequestId.of(1), null, null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new JsonRpcMessage.Notification(null, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new JsonRpcMessage.Response(null, Map.of())).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new JsonRpcMessage.ErrorResponse(RequestId.of(1), null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new JsonRpcError(1, null, null)).isInstanceOf(NullPointerException.class);
        assertThat(new JsonRpcMessage.ErrorResponse(null, JsonRpcError.of(1, "m")).id()).isNull();
    }

    @Test
    void wellKnownErrorCodes() {
        assertThat(JsonRpcError.PARSE_ERROR).isEqualTo(-32700);
        assertThat(JsonRpcError.INVALID_REQUEST).isEqualTo(-32600);
        assertThat(JsonRpcError.METHOD_NOT_FOUND).isEqualTo(-32601);
        assertThat(JsonRpcError.INVALID_PARAMS).isEqualTo(-32602);
        assertThat(JsonRpcError.INTERNAL_ERROR).isEqualTo(-32603);
        assertThat(JsonRpcError.of(5, "m")).isEqualTo(new JsonRpcError(5, "m", null));
    }

    @Test
    void rpcExceptionCarriesEveryDetailAndAnInformativeMessage() {
        McpRpcException e = new McpRpcException("tools/call", RequestId.of(4),
                new JsonRpcError(-32602, "bad", Map.of("f", 1)));
        assertThat(e.method()).isEqualTo("tools/call");
        assertThat(e.requestId()).contains(RequestId.of(4));
        assertThat(e.code()).isEqualTo(-32602);
        assertThat(e.errorMessage()).isEqualTo("bad");
        assertThat(e.data()).isEqualTo(Map.of("f", 1));
        assertThat(e).hasMessage("tools/call (id 4) failed with JSON-RPC error -32602: bad");
        assertThat(e).isInstanceOf(McpException.class).isInstanceOf(RuntimeException.class);
    }
}
