package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.transport.http.HttpTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The 2025-11-25 tasks contract over Streamable HTTP: one server-everything process serves the class. */
class HttpLegacyTasksTest extends LegacyTasksContract {
    private HttpReferenceServer server;

    @BeforeAll
    void startServer() throws Exception {
        server = new HttpReferenceServer();
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
