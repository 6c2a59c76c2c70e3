package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.HttpReferenceServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The CLI against a server that offers only the HTTP+SSE transport of 2024-11-05 (server-everything in its
 * {@code sse} mode on a free loopback port): {@code --sse URL}, and {@code --http URL} falling back by itself.
 */
@ExtendWith(LeakCheck.class)
class CliSseTest {

    private static HttpReferenceServer server;
    private static String sseUrl;

    @BeforeAll
    static void startServer() throws Exception {
        server = HttpReferenceServer.sse();
        sseUrl = server.sseUrl().toString();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static InProcessCli.Run mcp(String... args) {
        return InProcessCli.run(name -> null, args);
    }

    @Test
    void sseOptionListsAndCalls() {
        InProcessCli.Run tools = mcp("--sse", sseUrl, "tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("echo ");

        InProcessCli.Run call = mcp("--sse", sseUrl, "--header", "X-Loom-Test: yes", "call", "echo",
                "{\"message\":\"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).isEqualTo("Echo: hi\n");

        InProcessCli.Run info = mcp("--sse", sseUrl, "--protocol", "2024-11-05", "--json", "info");
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("2024-11-05");
    }

    @Test
    void aPlainHttpUrlFallsBackToSseByItself() {
        InProcessCli.Run call = mcp("--http", sseUrl, "call", "echo", "{\"message\":\"fallback\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).isEqualTo("Echo: fallback\n");
    }

    @Test
    void sseAndHttpTogetherOrABadUrlAreUsageErrors() {
        InProcessCli.Run both = mcp("--sse", sseUrl, "--http", sseUrl, "tools");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("give either --http or --sse, not both");

        InProcessCli.Run bad = mcp("--sse", "ftp://127.0.0.1/sse", "tools");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--sse: expected an http:// or https:// URL");
    }
}
