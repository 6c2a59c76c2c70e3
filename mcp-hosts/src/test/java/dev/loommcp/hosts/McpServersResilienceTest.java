package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.loommcp.McpCircuitOpenException;
import dev.loommcp.McpTransportException;
import dev.loommcp.policy.CircuitBreakerPolicy;
import dev.loommcp.policy.CircuitState;
import dev.loommcp.policy.CircuitStateChange;
import dev.loommcp.policy.ResiliencePolicy;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Resilience per hosted server (issue 30 section 3): the registry's policy for every server and one server's own,
 * each server's circuit breaker in its status and its changes told to the registry's listener, against scripted
 * servers that fail and recover.
 */
@ExtendWith(LeakCheck.class)
class McpServersResilienceTest {

    /** A server whose {@code tools/call} fails with a broken connection while {@code down} is set. */
    private static ScriptedTransport server(AtomicBoolean down) {
        ScriptedTransport t = ScriptedTransport.create().on("tools/list", r -> Map.of("tools",
                List.of(Map.of("name", "echo", "inputSchema", Map.of("type", "object")))));
        t.on("tools/call", r -> {
            if (down.get()) {
                t.failSend(r.id(), new McpTransportException("connection reset"));
                return ScriptedTransport.HOLD;
            }
            return Map.of("content", List.of());
        });
        return t;
    }

    private record Heard(String server, CircuitStateChange change) {
    }

    @Test
    void eachServersBreakerShowsInItsStatusAndItsChangesReachTheListener() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        Map<String, ScriptedTransport> transports = new ConcurrentHashMap<>();
        List<Heard> heard = new CopyOnWriteArrayList<>();
        ResiliencePolicy breaker = ResiliencePolicy.newBuilder().circuitBreaker(CircuitBreakerPolicy
                .of(2, Duration.ofSeconds(30), Duration.ofSeconds(2))).build();
        try (McpServers servers = McpServers.newBuilder().closeTimeout(Duration.ofSeconds(5))
                .transports(config -> transports.computeIfAbsent(config.name(), n -> server(down)))
                .add(StdioServerConfig.of("alpha", "never-run")).add(StdioServerConfig.of("beta", "never-run"))
                .resilience(breaker).resilience("beta", ResiliencePolicy.NONE)
                .listener(new McpServersListener() {
                    @Override
                    public void onCircuitStateChanged(String serverName, CircuitStateChange change) {
                        heard.add(new Heard(serverName, change));
                    }
                }).build()) {
            List<ServerStatus> started = servers.startAll();
            assertThat(started).extracting(ServerStatus::circuit).containsExactly(CircuitState.CLOSED, null);

            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> servers.callTool("alpha__echo", Map.of()))
                        .isInstanceOf(McpTransportException.class);
                assertThatThrownBy(() -> servers.callTool("beta__echo", Map.of()))
                        .isInstanceOf(McpTransportException.class);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> servers.server("alpha").status().circuit()
                    == CircuitState.OPEN);
            assertThatThrownBy(() -> servers.callTool("alpha__echo", Map.of()))
                    .isInstanceOf(McpCircuitOpenException.class).hasMessageContaining("circuit breaker");
            assertThatThrownBy(() -> servers.callTool("beta__echo", Map.of()))
                    .isInstanceOf(McpTransportException.class); // beta has no breaker: still sent
            assertThat(servers.server("alpha").state()).isEqualTo(ServerState.READY); // an open breaker is no crash
            assertThat(servers.server("beta").status().circuit()).isNull();

            down.set(false); // the server recovers: after the open duration a probe closes the breaker
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(() -> servers.callTool("alpha__echo", Map.of()) != null);
            await().atMost(Duration.ofSeconds(10)).until(() -> servers.server("alpha").status().circuit()
                    == CircuitState.CLOSED && heard.size() == 3);
            assertThat(heard).extracting(Heard::server).containsOnly("alpha");
            assertThat(heard).extracting(h -> h.change().state())
                    .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
            assertThat(heard.getFirst().change().cause()).isInstanceOf(McpTransportException.class);
        }
    }

    @Test
    void aRestartGivesTheServerANewBreakerThatStartsClosed() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        try (McpServers servers = McpServers.newBuilder().closeTimeout(Duration.ofSeconds(5))
                .transports(config -> server(down)) // a new transport per start
                .add(StdioServerConfig.of("alpha", "never-run"))
                .resilience(ResiliencePolicy.newBuilder().circuitBreaker(CircuitBreakerPolicy
                        .of(1, Duration.ofSeconds(30), Duration.ofSeconds(30))).build())
                .build()) {
            servers.startAll();
            assertThatThrownBy(() -> servers.callTool("alpha__echo", Map.of()))
                    .isInstanceOf(McpTransportException.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> servers.server("alpha").status().circuit()
                    == CircuitState.OPEN);
            servers.restart("alpha");
            await().atMost(Duration.ofSeconds(10)).until(() -> servers.server("alpha").state() == ServerState.READY
                    && servers.server("alpha").status().circuit() == CircuitState.CLOSED);
            down.set(false);
            assertThat(servers.callTool("alpha__echo", Map.of()).content()).isEmpty();
        }
    }

    /** One server whose tool calls fail, with a breaker that opens at the first failure for {@code open}. */
    private static McpServers failingServerWithABreaker(String name, Duration open) {
        AtomicBoolean down = new AtomicBoolean(true);
        return McpServers.newBuilder().closeTimeout(Duration.ofSeconds(5)).transports(config -> server(down))
                .add(StdioServerConfig.of(name, "never-run"))
                .resilience(ResiliencePolicy.newBuilder().circuitBreaker(CircuitBreakerPolicy
                        .of(1, Duration.ofSeconds(30), open)).build())
                .build();
    }

    @Test
    void theBreakersMessagesNameTheServerByItsRegistryNameNotTheTransport() throws Exception {
        try (McpServers servers = failingServerWithABreaker("ev", Duration.ofSeconds(30))) {
            servers.startAll();
            assertThatThrownBy(() -> servers.callTool("ev__echo", Map.of()))
                    .isInstanceOf(McpTransportException.class);
            assertThatThrownBy(() -> servers.callTool("ev__echo", Map.of()))
                    .isInstanceOf(McpCircuitOpenException.class)
                    .hasMessageContaining("the circuit breaker of server 'ev' is open")
                    .hasMessageNotContaining("scripted-server"); // the transport's description
        }
    }

    @Test
    void theStatusShowsTheBreakerAsTheClientKnowsItNowNotAsTheLastEventDeliveredIt() throws Exception {
        try (McpServers servers = failingServerWithABreaker("alpha", Duration.ofMillis(300))) {
            servers.startAll();
            assertThatThrownBy(() -> servers.callTool("alpha__echo", Map.of()))
                    .isInstanceOf(McpTransportException.class);
            // the call that opened it has returned: the status says so at once, with no event delivered yet
            assertThat(servers.server("alpha").status().circuit()).isEqualTo(CircuitState.OPEN);
            assertThat(servers.statuses()).extracting(ServerStatus::circuit).containsExactly(CircuitState.OPEN);
            // no call comes: once the open duration passed, the breaker lets a probe through, and the status says so
            await().atMost(Duration.ofSeconds(10)).until(() -> servers.server("alpha").status().circuit()
                    == CircuitState.HALF_OPEN);
            assertThat(servers.server("alpha").state()).isEqualTo(ServerState.READY);
        }
    }

    @Test
    void aServersOwnPolicyMustNameAServerOfTheRegistry() {
        McpServers.Builder b = McpServers.newBuilder().add(StdioServerConfig.of("alpha", "never-run"))
                .resilience("alhpa", ResiliencePolicy.NONE);
        assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'alhpa'").hasMessageContaining("[alpha]");
        assertThatThrownBy(() -> McpServers.newBuilder().resilience(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("policy");
        assertThatThrownBy(() -> McpServers.newBuilder().resilience("alpha", null))
                .isInstanceOf(NullPointerException.class).hasMessage("policy");
    }
}
