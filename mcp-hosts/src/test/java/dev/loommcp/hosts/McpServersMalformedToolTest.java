package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.ScriptedTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Break test 40, finding 1: one malformed tool of a server's {@code tools/list} (its inputSchema a string, a tool
 * without a name) used to fail the whole listing, and with it the server (FAILED, its good tools never offered). The
 * client now leaves the malformed entry out with a WARNING; the registry keeps the server READY with its good tools.
 */
@ExtendWith(LeakCheck.class)
class McpServersMalformedToolTest {

    static {
        // the tests are patched into dev.loommcp.hosts, which does not read java.logging (LogRecorder needs it)
        McpServersMalformedToolTest.class.getModule()
                .addReads(ModuleLayer.boot().findModule("java.logging").orElseThrow());
    }

    private static final String SECRET = "hunter2-s3cr3t";

    @Test
    void aMalformedToolCostsTheServerThatToolOnly() throws Exception {
        ScriptedTransport alpha = ScriptedTransport.create().on("tools/list", r -> Map.of("tools", List.of(
                Map.of("name", "good", "inputSchema", Map.of("type", "object")),
                Map.of("name", "sloppy", "inputSchema", SECRET),
                Map.of("description", SECRET, "inputSchema", Map.of("type", "object")))));
        alpha.on("tools/call", r -> Map.of("content", List.of(Map.of("type", "text", "text", "done"))));
        try (LogRecorder log = new LogRecorder();
             McpServers servers = McpServers.newBuilder().closeTimeout(Duration.ofSeconds(30))
                     .add(StdioServerConfig.of("alpha", "never-run")).transports(c -> alpha).build()) {
            servers.startAll();
            assertThat(servers.server("alpha").state()).isEqualTo(ServerState.READY);
            assertThat(servers.tools()).extracting(HostedTool::name).containsExactly("alpha__good");
            assertThat(servers.server("alpha").listedTools()).extracting(Tool::name).containsExactly("good");
            assertThat(servers.statuses().getFirst().toolCount()).isEqualTo(1);
            assertThat(servers.callTool("alpha__good", Map.of()).content()).hasSize(1);
            assertThat(log.at(Level.WARNING)).filteredOn(l -> l.contains("left out, the other entries kept"))
                    .hasSize(2)
                    .allSatisfy(l -> assertThat(l).contains("tools/list: entry ").doesNotContain(SECRET));
        }
    }
}
