package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.it.servers.UnixSocketServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code --http unix:/path:/mcp}: the CLI against server-everything listening on a unix socket. */
@ExtendWith(LeakCheck.class)
class CliUnixTest {

    record Run(int code, String out, String err) {
    }

    private static UnixSocketServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = UnixSocketServer.referenceServer();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static Run mcp(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), name -> null, args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void commandsWorkOverAUnixSocket() {
        String endpoint = server.endpoint().toString();
        Run tools = mcp("--http", endpoint, "tools");
        assertThat(tools.code()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("echo ");
        Run call = mcp("--http", endpoint, "--header", "X-Loom-Test: yes", "call", "echo", "{\"message\":\"hi\"}");
        assertThat(call.code()).as(call.err()).isZero();
        assertThat(call.out()).isEqualTo("Echo: hi\n");
    }

    @Test
    void aMissingSocketOrABadUnixEndpointIsReportedClearly(@TempDir Path dir) {
        Path socket = dir.resolve("none.sock");
        Run missing = mcp("--http", "unix:" + socket + ":/mcp", "tools");
        assertThat(missing.code()).isNotZero();
        assertThat(missing.err()).contains(socket.toString()).contains("no such file");
        Run relative = mcp("--http", "unix:relative.sock", "tools");
        assertThat(relative.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(relative.err()).contains("absolute socket path");
    }
}
