package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.ReferenceServer;
import dev.loommcp.transport.stdio.StdioTransport;

/** The 2025-11-25 tasks contract over stdio: a server-everything process per client. */
class StdioLegacyTasksTest extends LegacyTasksContract {
    @Override
    protected McpTransport newTransport() {
        return StdioTransport.newBuilder(ReferenceServer.stdioCommand()).build();
    }
}
