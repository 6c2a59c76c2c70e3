package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.config.Era;
import dev.loommcp.McpClient;
import dev.loommcp.config.ProtocolMode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.schema.GetPromptResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.Tool;
import dev.loommcp.it.servers.ModernFixture;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client's contract in the 2025 era against the dual-era fixture (the reference SDK serves a client that opens
 * with {@code initialize} from the same definitions): the era is forced to LEGACY. The subclasses add what depends on
 * the transport (MRTR's legacy shape and subscriptions over stdio).
 */
abstract class DualEraLegacyContract extends FixtureClients {

    @Override
    protected ProtocolMode mode() {
        return ProtocolMode.LEGACY;
    }

    @Test
    void connectsInTheLegacyEra() throws Exception {
        McpClient client = connect();
        assertThat(client.era().orElseThrow()).isEqualTo(Era.LEGACY);
        assertThat(client.protocolVersion().orElseThrow()).isEqualTo(LEGACY);
        assertThat(client.discoverResult()).isEmpty();
        assertThat(client.serverInfo().orElseThrow().name()).isEqualTo(ModernFixture.Variant.DUAL_ERA.serverName());
        assertThat(sentRequests(0, "server/discover")).isEmpty();
        assertThat(sentRequests(0).get(0).method()).isEqualTo("initialize");
        client.ping();
    }

    @Test
    void listsCallsReadsAndGetsWithoutTheModernEnvelope() throws Exception {
        McpClient client = connect();
        assertThat(client.listAllTools()).extracting(Tool::name).contains("echo", "deploy", "add-note", "route");
        assertThat(client.callTool("echo", Map.of("message", "hi")).text()).isEqualTo("Echo: hi");
        assertThat(client.readResource("notes://all").contents().get(0)).isInstanceOf(TextResourceContents.class);
        GetPromptResult greeting = client.getPrompt("greeting", Map.of("name", "Ada"));
        assertThat(((TextContent) greeting.messages().get(0).content()).text()).isEqualTo("Hello, Ada!");
        assertThat(client.callTool("route", Map.of("region", "eu", "count", 2)).text())
                .isEqualTo("region=eu count=2 note=");
        for (JsonRpcMessage.Request r : sentRequests(0)) {
            Object meta = r.params() == null ? null : r.params().get("_meta");
            if (meta != null) {
                assertThat(map(meta)).as(r.method()).doesNotContainKey("io.modelcontextprotocol/protocolVersion");
            }
        }
    }
}
