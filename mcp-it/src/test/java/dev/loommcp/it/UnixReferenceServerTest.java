package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.UnixSocketServer;
import dev.loommcp.transport.http.HttpTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract against server-everything over Streamable HTTP on a unix socket ({@code unix:<socket>:/mcp}, module
 * mcp-transport-unix): the legacy era, one server for the class, a session per test.
 */
class UnixReferenceServerTest extends ReferenceServerContract {

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

    @Override
    protected McpTransport newTransport() {
        return HttpTransport.newBuilder(server.endpoint()).build();
    }
}
