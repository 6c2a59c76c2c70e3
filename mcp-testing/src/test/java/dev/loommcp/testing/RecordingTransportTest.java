package dev.loommcp.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.Deadline;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import dev.loommcp.spi.TransportInfo;
import dev.loommcp.spi.TransportSink;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 10: the recorder passes the era seams of the SPI and every sink event through, so a recorded transport
 * behaves like the one it wraps in both eras (before, a recorded stdio transport had no probe copy and no cache key,
 * a recorded HTTP transport claimed one stream for everything, and a send failure never reached the client).
 */
class RecordingTransportTest {

    /** A transport with every era seam set and a send that fails through the sink. */
    private static final class SeamTransport implements McpTransport {
        private volatile TransportSink sink;
        private final boolean probe;

        SeamTransport(boolean probe) {
            this.probe = probe;
        }

        @Override
        public void open(TransportContext context) {
            sink = context.sink();
        }

        @Override
        public void send(JsonRpcMessage message, SendContext context) {
            if (message instanceof JsonRpcMessage.Request r) {
                sink.onSendFailed(r.id(), new McpTransportException("refused " + r.method()));
            }
        }

        @Override
        public Optional<McpTransport> probeTransport() {
            return probe ? Optional.of(new SeamTransport(false)) : Optional.empty();
        }

        @Override
        public Optional<String> serverKey() {
            return Optional.of("key-1");
        }

        @Override
        public boolean exchangePerRequest() {
            return true;
        }

        @Override
        public String describe() {
            return "seam";
        }

        @Override
        public TransportInfo info() {
            return new TransportInfo(TransportInfo.Kind.TCP, "127.0.0.1", 8080);
        }

        @Override
        public Optional<String> sessionId() {
            return Optional.of("session-1");
        }

        @Override
        public void close() {
        }
    }

    @Test
    void eraSeamsArePassedThroughAndProbesAreRecordedToo() throws Exception {
        RecordingTransport t = new RecordingTransport(new SeamTransport(true));
        assertThat(t.serverKey().orElseThrow()).isEqualTo("key-1");
        assertThat(t.exchangePerRequest()).isTrue();
        assertThat(t.probes()).isEmpty();
        McpTransport probe = t.probeTransport().orElseThrow();
        assertThat(probe).isInstanceOf(RecordingTransport.class);
        assertThat(t.probes()).containsExactly((RecordingTransport) probe);
        RecordingSink sink = new RecordingSink();
        probe.open(TransportContext.of(sink, Deadline.NONE));
        probe.send(new JsonRpcMessage.Request(RequestId.of(1), "server/discover", Map.of()),
                SendContext.detached(Deadline.NONE));
        assertThat(t.probes().get(0).sent()).hasSize(1);
        assertThat(t.sent()).as("the probe's messages are not the session's").isEmpty();
        assertThat(new RecordingTransport(new SeamTransport(false)).probeTransport()).isEmpty();
    }

    @Test
    void aSendFailureReachesTheClientsSink() throws Exception {
        RecordingTransport t = new RecordingTransport(new SeamTransport(false));
        RecordingSink sink = new RecordingSink();
        t.open(TransportContext.of(sink, Deadline.NONE));
        t.send(new JsonRpcMessage.Request(RequestId.of(5), "tools/list", Map.of()), SendContext.detached(Deadline.NONE));
        McpException failure = sink.awaitSendFailure(RequestId.of(5), RecordingSink.SOON);
        assertThat(failure).hasMessageContaining("refused tools/list");
    }

    @Test
    void theTransportInfoAndSessionIdOfTheWrappedTransportArePassedThrough() {
        RecordingTransport t = new RecordingTransport(new SeamTransport(false));
        assertThat(t.info()).isEqualTo(new TransportInfo(TransportInfo.Kind.TCP, "127.0.0.1", 8080));
        assertThat(t.sessionId()).contains("session-1");
    }
}
