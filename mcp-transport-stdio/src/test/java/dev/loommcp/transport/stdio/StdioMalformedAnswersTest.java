package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.McpProtocolException;
import dev.loommcp.testing.LeakCheck;
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

    /**
     * A response of the usual form whose result is not valid JSON: the reader thread keeps such a result as bytes, the
     * calling thread finds the problem when it decodes it; the call fails at once all the same, and the client stays
     * usable.
     */
    @Test
    void aResultThatIsNotValidJsonFailsItsCallAtOnceAndTheClientStaysUsable() throws Exception {
        try (McpClient c = client()) {
            c.connect();
            assertThatThrownBy(() -> c.callTool("badresult", Map.of()))
                    .isInstanceOfSatisfying(McpProtocolException.class, e -> assertThat(e.getMessage())
                            .contains("tools/call").contains("not valid JSON"));
            assertThat(c.callTool("good", Map.of()).text()).isEqualTo("ok");
            assertThat(c.pendingRequestCount()).isZero();
        }
    }

    /**
     * AUTO's probe answered with a {@code server/discover} result that is not valid JSON: the server is taken for a
     * legacy one (as for any malformed answer to the probe), not a failed connect.
     */
    @Test
    void aProbeAnswerThatIsNotValidJsonMeansTheLegacyEra() throws Exception {
        try (McpClient c = client()) {
            c.connect();
            assertThat(c.era().orElseThrow()).isEqualTo(dev.loommcp.config.Era.LEGACY);
            assertThat(c.callTool("good", Map.of()).text()).isEqualTo("ok");
        }
    }

    /**
     * Break test 40, finding 2: valid JSON over a read limit of the parser (nested deeper than 500 levels, an integer
     * of more than 1000 digits) used to be skipped as "not valid JSON (StreamConstraintsException)" while its call
     * waited out its deadline; the call now fails at once naming the limit, the client stays usable.
     */
    @Test
    void anAnswerOverAReadLimitFailsItsCallAtOnceNamingTheLimit() throws Exception {
        try (McpClient c = client()) {
            c.connect();
            assertThatThrownBy(() -> c.callTool("deep", Map.of()))
                    .isInstanceOfSatisfying(McpProtocolException.class, e -> assertThat(e.getMessage())
                            .contains("tools/call").contains("read limit").contains("nesting depth")
                            .contains("maximum allowed (500"));
            assertThatThrownBy(() -> c.callTool("longnum", Map.of()))
                    .isInstanceOfSatisfying(McpProtocolException.class, e -> assertThat(e.getMessage())
                            .contains("tools/call").contains("read limit").contains("Number value length")
                            .doesNotContain("7777777777"));
            assertThat(c.callTool("good", Map.of()).text()).isEqualTo("ok");
            assertThat(c.pendingRequestCount()).isZero();
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
        Object handler = JulWarnings.attach("dev.loommcp.client", warnings);
        try (McpClient c = client()) {
            c.connect();
            assertThat(c.callTool("stranger", Map.of()).text()).isEqualTo("ok");
        } finally {
            JulWarnings.detach("dev.loommcp.client", handler);
        }
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("9999").contains("never sent"));
    }
}
