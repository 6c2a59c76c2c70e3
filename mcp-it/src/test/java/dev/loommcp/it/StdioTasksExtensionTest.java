package dev.loommcp.it;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.it.servers.TasksFixture;
import dev.loommcp.transport.stdio.StdioTransport;

/** The tasks extension contract over stdio: a tasks fixture process per client. */
class StdioTasksExtensionTest extends TasksExtensionContract {
    @Override
    protected McpTransport newTransport() {
        return StdioTransport.newBuilder(TasksFixture.stdioCommand()).build();
    }
}
