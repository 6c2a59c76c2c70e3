package dev.loommcp.cli;

import static dev.loommcp.cli.CliProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.cli.CliProcess.Run;
import dev.loommcp.it.servers.HttpReferenceServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged {@code mcp.jar} (its real {@code main}, a JVM of its own) against server-everything in its
 * {@code sse} mode (the HTTP+SSE transport of 2024-11-05): with {@code --sse}, and with {@code --http} falling back.
 */
class CliSseIT {

    private static HttpReferenceServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = HttpReferenceServer.sse();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theJarCallsAToolWithSse() throws Exception {
        Run r = run(new ProcessBuilder(CliProcess.javaJar("--sse", server.sseUrl().toString(), "call", "echo",
                "{\"message\":\"jar\"}")));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("Echo: jar\n");
    }

    @Test
    void theJarFallsBackFromHttpToSse() throws Exception {
        Run r = run(new ProcessBuilder(CliProcess.javaJar("--http", server.sseUrl().toString(), "tools")));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("echo ");
    }
}
