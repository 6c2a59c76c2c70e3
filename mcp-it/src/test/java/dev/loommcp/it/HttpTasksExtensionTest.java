package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.HttpTasksFixture;
import dev.loommcp.transport.http.HttpTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The tasks extension contract over Streamable HTTP: one tasks fixture process serves the class. */
class HttpTasksExtensionTest extends TasksExtensionContract {
    private HttpTasksFixture server;

    @BeforeAll
    void startServer() throws Exception {
        server = new HttpTasksFixture();
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
