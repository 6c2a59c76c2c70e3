package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.UnixSocketServer;
import dev.loommcp.transport.http.HttpTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The tasks extension contract over Streamable HTTP on a unix socket: one tasks fixture process serves the class. */
class UnixTasksExtensionTest extends TasksExtensionContract {
    private UnixSocketServer server;

    @BeforeAll
    void startServer() throws Exception {
        server = UnixSocketServer.tasksFixture();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected McpTransport newTransport() {
        return HttpTransport.newBuilder(server.endpoint()).build();
    }
}
