package dev.loommcp.hosts;

import dev.loommcp.event.McpEventListener;
import dev.loommcp.it.servers.CrashFixture;
import dev.loommcp.jsonrpc.RequestId;
import dev.loommcp.testing.LeakCheck;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event listener a client customizer gives a hosted server's client (telemetry's session metric, for example)
 * keeps hearing that client beside the registry's own, which still sees the crash and restarts the server. Before,
 * the registry set its own with {@code eventListener} after the customizer and the customizer's heard nothing.
 */
@ExtendWith(LeakCheck.class)
class McpServersEventListenerTest {

    @Test
    void theCustomizersEventListenerHearsTheClientAndTheRegistryStillRestartsACrashedServer() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        McpEventListener recorder = new McpEventListener() {
            @Override
            public void requestStart(String method, RequestId id) {
                events.add("start " + method);
            }

            @Override
            public void transportClosed(@Nullable Throwable cause) {
                events.add(cause == null ? "closed" : "closed by a failure");
            }
        };
        try (McpServers servers = McpServers.newBuilder()
                .add(StdioServerConfig.of("crashy", CrashFixture.stdioCommand(2)))
                .restartPolicy(new RestartPolicy(3, Duration.ofMillis(50), Duration.ofMillis(200),
                        Duration.ofSeconds(60)))
                .clientCustomizer((config, b) -> b.eventListener(recorder))
                .build()) {
            servers.callTool("crashy__calls", Map.of());
            servers.callTool("crashy__echo", Map.of("message", "bye")); // answered, then the process exits
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (servers.server("crashy").status().restarts() < 1
                    || servers.server("crashy").status().state() != ServerState.READY) {
                assertThat(servers.server("crashy").status().state()).isNotEqualTo(ServerState.FAILED);
                assertThat(System.nanoTime()).as("the crashed server is back").isLessThan(end);
                Thread.sleep(50);
            }
        }
        assertThat(events).contains("start tools/call", "closed by a failure");
    }
}
