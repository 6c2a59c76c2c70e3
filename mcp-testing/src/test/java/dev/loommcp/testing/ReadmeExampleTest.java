package dev.loommcp.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loommcp.McpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The example of README.md's "Testing code that uses McpClient" (there the class is called {@code CalculatorTest}):
 * the build runs it, and {@link #readmeShowsThisCode()} fails when the two drift apart.
 */
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
        ScriptedTransport server = ScriptedTransport.create()
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

    // ---------------------------------------------------------------------------------------------- README in step
    // (everything above this line, from the record on, is the README's code)

    @Test
    void readmeShowsThisCode() throws IOException {
        Path root = Path.of(System.getProperty("loommcp.root.dir", ".."));
        String me = Files.readString(
                root.resolve("mcp-testing/src/test/java/dev/loommcp/testing/ReadmeExampleTest.java"));
        String readme = Files.readString(root.resolve("README.md"));
        String marker = "    /** The code under test";
        String code = me.substring(me.indexOf(marker), me.indexOf("\n    // ------")).strip();
        int section = readme.indexOf("## Testing code that uses McpClient");
        String example = readme.substring(readme.indexOf(marker, section), readme.indexOf("\n}\n```", section))
                .strip();
        assertEquals(code, example, "README.md's example and ReadmeExampleTest differ: keep them in step");
    }
}
