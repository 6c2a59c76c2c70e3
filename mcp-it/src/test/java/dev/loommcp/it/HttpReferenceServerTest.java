package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.HttpReferenceServer;
import dev.loommcp.transport.http.HttpTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The contract against server-everything over Streamable HTTP (one server for the class, a session per test). */
class HttpReferenceServerTest extends ReferenceServerContract {

    private static HttpReferenceServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = new HttpReferenceServer();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected McpTransport newTransport() {
        return HttpTransport.newBuilder(server.endpoint()).build();
    }
}
