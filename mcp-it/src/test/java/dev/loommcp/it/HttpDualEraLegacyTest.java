package dev.loommcp.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.McpClient;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ElicitRequest;
import dev.loommcp.schema.ElicitResult;
import dev.loommcp.it.servers.ModernFixture;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The legacy-era contract over Streamable HTTP against the dual-era fixture. The reference SDK serves 2025 clients
 * there statelessly (a fresh instance per POST, no session, GET answered 405), so the server can neither ask the
 * client anything nor notify it: MRTR and subscriptions are covered over stdio ({@link StdioDualEraLegacyTest}).
 */
class HttpDualEraLegacyTest extends DualEraLegacyContract {

    @Override
    protected ModernFixture.Variant httpServer() {
        return ModernFixture.Variant.DUAL_ERA;
    }

    @Test
    void overStatelessLegacyHttpTheServerCannotAskAndSaysSo() throws Exception {
        List<ElicitRequest> asked = new CopyOnWriteArrayList<>();
        McpClient client = connect(b -> b.elicitationHandler(request -> {
            asked.add(request);
            return ElicitResult.accept(Map.of("confirm", true));
        }));
        CallToolResult result = client.callTool("deploy", Map.of("env", "prod"));
        assertThat(result.error()).isTrue();
        assertThat(result.text()).contains("Cannot request input");
        assertThat(asked).isEmpty();
    }
}
