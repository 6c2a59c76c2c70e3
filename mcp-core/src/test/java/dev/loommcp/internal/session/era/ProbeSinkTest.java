package dev.loommcp.internal.session.era;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.spi.TransportSink;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 1: the stages of the sink in front of the session while AUTO probes on the session's own connection
 * ({@link ProbeSink}): what reaches the probe, what reaches the session, and what happens to the connection's loss
 * in each stage.
 */
class ProbeSinkTest {

    private final List<Object> session = new CopyOnWriteArrayList<>();
    private final List<McpTransportException> failedPending = new CopyOnWriteArrayList<>();
    private final ProbeSink sink = new ProbeSink(new TransportSink() {
        @Override
        public void onMessage(JsonRpcMessage message) {
            session.add(message);
        }

        @Override
        public void onClosed(McpTransportException cause) {
            session.add(cause);
        }
    }, failedPending::add);

    private static final JsonRpcMessage NOTE = new JsonRpcMessage.Notification("notifications/message", Map.of());
    private static final JsonRpcMessage PROBE_ERROR = new JsonRpcMessage.ErrorResponse(ProbeSink.PROBE_ID,
            new JsonRpcError(-32601, "Method not found", null));

    @Test
    void theProbeStageKeepsEverythingFromTheSession() {
        sink.onMessage(NOTE);
        sink.onMessage(new JsonRpcMessage.Response(RequestId.of(1), Map.of()));
        assertThat(sink.answer()).isNotDone();
        sink.onMessage(PROBE_ERROR);
        assertThat(sink.answer().join()).isSameAs(PROBE_ERROR);
        assertThat(session).isEmpty();
    }

    @Test
    void aLossWhileProbingIsTheProbesAnswer() {
        McpTransportException exited = new McpTransportException("exited");
        sink.onClosed(exited);
        assertThat(sink.answer().join()).isSameAs(exited);
        assertThat(sink.lost()).isSameAs(exited);
        assertThat(session).isEmpty();
    }

    @Test
    void aLossDuringTheGuardedHandshakeFailsThePendingCallsButNotTheSession() {
        sink.onMessage(PROBE_ERROR);
        sink.guard();
        JsonRpcMessage init = new JsonRpcMessage.Response(RequestId.of(1), Map.of());
        sink.onMessage(init);
        McpTransportException exited = new McpTransportException("exited");
        sink.onClosed(exited);
        assertThat(failedPending).containsExactly(exited);
        assertThat(sink.lost()).isSameAs(exited);
        assertThat(session).containsExactly(init);
        // handed over anyway (the era setup found the handshake done): the session learns the loss now
        sink.handOver();
        assertThat(session).containsExactly(init, exited);
    }

    @Test
    void aLateProbeAnswerNeverReachesTheSession() {
        sink.handOver();
        sink.onMessage(PROBE_ERROR);
        sink.onMalformedResponse(ProbeSink.PROBE_ID, "bad");
        sink.onMessage(NOTE);
        McpTransportException exited = new McpTransportException("exited");
        sink.onClosed(exited);
        assertThat(session).containsExactly(NOTE, exited);
        assertThat(failedPending).isEmpty();
    }
}
