package dev.loommcp.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loommcp.McpClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The example of README.md's "Testing code that uses McpClient", verbatim: keep the two in step. */
@ExtendWith(LeakCheck.class)
class ReadmeExampleTest {

    /** The code under test: holds a client, knows nothing of the fake server. */
    record Calculator(McpClient client) {
        int add(int a, int b) throws InterruptedException {
            return Integer.parseInt(client.callTool("add", Map.of("a", a, "b", b)).text());
        }
    }

    @Test
    void calculatorAddsThroughTheServer() throws InterruptedException {
        ScriptedServerTransport server = ScriptedServerTransport.create()
                .on("tools/call", request -> {
                    Map<?, ?> args = (Map<?, ?>) request.params().get("arguments");
                    int sum = ((Number) args.get("a")).intValue() + ((Number) args.get("b")).intValue();
                    return Map.of("content", List.of(Map.of("type", "text", "text", String.valueOf(sum))));
                });
        try (McpClient client = McpClient.newBuilder(server).build()) {
            client.connect();
            assertEquals(5, new Calculator(client).add(2, 3));
        }
        assertEquals("add", server.requests("tools/call").get(0).params().get("name"));
    }
}
