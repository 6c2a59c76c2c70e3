package dev.loommcp.bench;

import dev.loommcp.McpClient;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.TextContent;
import dev.loommcp.transport.stdio.StdioTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** loom-mcp: {@link McpClient} over {@link StdioTransport}, called from virtual threads (one per call). */
final class LoomClient implements BenchClient {

    private McpClient client;

    @Override
    public String name() {
        return "loom";
    }

    @Override
    public void start(List<String> serverArgv) throws Exception {
        client = McpClient.newBuilder(StdioTransport.newBuilder(serverArgv).build())
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.connect();
    }

    @Override
    public String echo(String text) throws Exception {
        return firstText(client.callTool("echo", Map.of("text", text)));
    }

    @Override
    public String sleep(int ms) throws Exception {
        return firstText(client.callTool("sleep", Map.of("ms", ms)));
    }

    @Override
    public String callTool(String tool, Map<String, Object> arguments) throws Exception {
        return firstText(client.callTool(tool, arguments));
    }

    private static String firstText(CallToolResult result) {
        if (result.error()) {
            throw new IllegalStateException("tool answered isError");
        }
        return ((TextContent) result.content().get(0)).text();
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }
}
