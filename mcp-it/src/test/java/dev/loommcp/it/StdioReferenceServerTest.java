package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.transport.stdio.StdioTransport;

/** The contract against server-everything over stdio. */
class StdioReferenceServerTest extends ReferenceServerContract {
    @Override
    protected McpTransport newTransport() {
        return StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build();
    }
}
