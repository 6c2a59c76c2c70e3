package dev.loommcp.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.config.ProtocolMode;
import dev.loommcp.RequestOptions;
import dev.loommcp.jsonrpc.JsonRpcError;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.ScriptedTransport;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Session#call(String, java.util.Map, RequestOptions, java.util.function.Consumer)}'s contract with the
 * subscriptions code: the id of every request sent, in both eras.
 */
class SessionCallTest {

    @RegisterExtension
    final SessionsUnderTest sessions = new SessionsUnderTest();

    private Session connect(ScriptedTransport t, ProtocolMode mode) throws InterruptedException {
        return sessions.connect(t, mode);
    }

    @Test
    void onSentIsToldEveryModernIdIncludingTheCorrectiveRetry() throws Exception {
        AtomicInteger n = new AtomicInteger();
        ScriptedTransport t = ScriptedTransport.create(ScriptedTransport.Mode.INLINE);
        t.on("server/discover", r -> Map.of("supportedVersions", List.of(ProtocolMode.MODERN_PROTOCOL_VERSION),
                "capabilities", Map.of(), "resultType", "complete"));
        t.on("subscriptions/listen", r -> n.incrementAndGet() == 1 ? new JsonRpcError(-32022, "v",
                Map.of("supported", List.of(ProtocolMode.MODERN_PROTOCOL_VERSION), "requested", "x"))
                : Map.of("resultType", "complete"));
        Session s = connect(t, ProtocolMode.MODERN);
        List<RequestId> ids = new CopyOnWriteArrayList<>();
        Object result = s.call("subscriptions/listen", Map.of("notifications", Map.of()),
                RequestOptions.DEFAULT, ids::add);
        assertThat(result).isEqualTo(Map.of("resultType", "complete"));
        assertThat(ids).containsExactlyElementsOf(t.requests("subscriptions/listen").stream()
                .map(JsonRpcMessage.Request::id).toList());
        assertThat(ids).hasSize(2);
    }

    @Test
    void onSentIsToldTheIdInTheLegacyEraToo() throws Exception {
        ScriptedTransport t = ScriptedTransport.create(ScriptedTransport.Mode.BLOCKING);
        t.on("resources/subscribe", r -> Map.of());
        Session s = connect(t, ProtocolMode.LEGACY);
        List<RequestId> ids = new CopyOnWriteArrayList<>();
        s.call("resources/subscribe", Map.of("uri", "a://b"), RequestOptions.DEFAULT, ids::add);
        assertThat(ids).containsExactly(t.awaitRequest("resources/subscribe").id());
        assertThat(t.recordOf(m -> m instanceof JsonRpcMessage.Request r
                && r.method().equals("resources/subscribe")).routing()).isEmpty();
    }
}
