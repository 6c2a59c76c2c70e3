package dev.loommcp.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpClient;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.testing.LeakCheck;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A stdio transport serves one client, once: a second client built over it (from the same builder, as a user who
 * shares a builder does) is refused at build time, naming the transport, before its connect could fail on the
 * already opened transport and close the first client's server. Real child process ({@code tiny-server.sh}).
 */
@ExtendWith(LeakCheck.class)
@Timeout(60)
class StdioOneClientPerTransportTest {

    @Test
    void aSecondClientOverTheSameStdioTransportIsRefusedAndTheFirstKeepsItsServer() throws Exception {
        StdioTransport transport = StdioTransport.newBuilder("sh", Children.script("tiny-server.sh").toString())
                .build();
        McpClient.Builder b = McpClient.newBuilder(transport);
        try (McpClient first = b.build()) {
            assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(transport.describe()).hasMessageContaining("make a new transport");
            first.connect();
            CallToolResult r = first.callTool("work", Map.of());
            assertThat(r.text()).startsWith("pong");
            assertThat(first.isConnected()).isTrue();
        }
    }
}
