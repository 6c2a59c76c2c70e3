package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.testkit.LeakCheck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A server that answers a request with something that is not JSON-RPC but names the request's id: the call fails at
 * once with {@link McpProtocolException} (it used to wait out its whole deadline); an answer to an id the client never
 * sent is reported at WARNING. Real child process ({@code bad-answers.sh}), real client.
 */
@ExtendWith(LeakCheck.class)
@Timeout(120)
class StdioMalformedAnswersTest {

    static {
        // the tests run inside dev.loommcp.transport.stdio, which does not read java.logging
        StdioMalformedAnswersTest.class.getModule()
                .addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
    }

    private static McpClient client() {
        return McpClient.newBuilder(StdioTransport.newBuilder("sh", Children.script("bad-answers.sh").toString())
                        .build())
                .requestTimeout(Duration.ofMinutes(5)) // far beyond the test's own timeout: a wait would fail it
                .build();
    }

    @Test
    void anAnswerWithResultAndErrorFailsItsCallAtOnceAndTheClientStaysUsable() throws Exception {
        try (McpClient c = client()) {
            c.connect();
            assertThatThrownBy(() -> c.callTool("both", Map.of()))
                    .isInstanceOfSatisfying(McpProtocolException.class, e -> assertThat(e.getMessage())
                            .contains("tools/call").contains("exactly one of \"result\" and \"error\""));
            assertThat(c.callTool("good", Map.of()).text()).isEqualTo("ok");
        }
    }

    @Test
    void anErrorWhoseCodeIsNotAnIntegerFailsItsCallAtOnce() throws Exception {
        try (McpClient c = client()) {
            c.connect();
            assertThatThrownBy(() -> c.callTool("strcode", Map.of()))
                    .isInstanceOfSatisfying(McpProtocolException.class,
                            e -> assertThat(e.getMessage()).contains("tools/call").contains("code"));
            assertThat(c.pendingRequestCount()).isZero();
        }
    }

    @Test
    void anAnswerToAnIdNeverSentIsReportedAtWarning() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Object handler = WarningLog.attach("dev.loommcp.client", warnings);
        try (McpClient c = client()) {
            c.connect();
            assertThat(c.callTool("stranger", Map.of()).text()).isEqualTo("ok");
        } finally {
            WarningLog.detach("dev.loommcp.client", handler);
        }
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("9999").contains("never sent"));
    }

    /**
     * Collects WARNING messages of a java.util.logging logger. Its JUL types appear only inside method bodies (casts,
     * a nested class created there), never in a signature the test class's verification would load before the read
     * edge to java.logging exists.
     */
    private static final class WarningLog {
        static Object attach(String name, List<String> sink) {
            Object handler = new Collector(sink);
            java.util.logging.Logger.getLogger(name).addHandler((java.util.logging.Handler) handler);
            return handler;
        }

        static void detach(String name, Object handler) {
            java.util.logging.Logger.getLogger(name).removeHandler((java.util.logging.Handler) handler);
        }

        private static final class Collector extends java.util.logging.Handler {
            private final List<String> sink;

            Collector(List<String> sink) {
                this.sink = sink;
            }

            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    sink.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        }
    }
}
