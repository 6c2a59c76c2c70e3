package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.BackgroundCall;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The core's side of the one send contract: a request's send returns at once, and a failure the transport reports
 * later through {@code TransportSink.onSendFailed} fails exactly that pending call with the transport's exception;
 * a failure for a request no longer pending is ignored and the client stays usable.
 */
class McpClientSendFailureTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFailureReportedThroughTheSinkFailsThatCallWithTheTransportsException(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.on("tools/call", r -> ScriptedTransport.HOLD), b -> b);
        BackgroundCall<Object> call = BackgroundCall.start("failing", () -> s.client().callTool("t", Map.of()));
        JsonRpcMessage.Request sent = s.server().awaitRequest("tools/call");
        McpTransportException cause = new McpTransportException("POST tools/call failed: connection reset");
        s.server().failSend(sent.id(), cause);
        assertThat(call.failure()).isSameAs(cause);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFailureForARequestNoLongerPendingIsIgnored(Mode mode) throws Exception {
        Session s = sessions.connected(mode);
        s.server().failSend(RequestId.of(999), new McpTransportException("late failure"));
        s.server().failSend(RequestId.of("x"), new McpTransportException("an id this client never sends"));
        s.client().ping();
        assertThat(s.client().isConnected()).isTrue();
    }
}
