/**
 * The {@code mcp} command-line client (an application: exports nothing). Run it as {@code java -jar mcp.jar}.
 */
module dev.loommcp.cli {
    requires dev.loommcp.core;
    requires dev.loommcp.tasks;
    requires dev.loommcp.transport.stdio;
    requires dev.loommcp.transport.http;
    requires dev.loommcp.auth;
    requires dev.loommcp.hosts;
    requires dev.loommcp.skills;
    requires dev.loommcp.transport.unix; // unix:/path endpoints for --http (found by the HTTP transport's ServiceLoader)
    requires info.picocli;
    requires java.logging;
    requires jdk.unsupported; // sun.misc.Signal: Ctrl+C closes the client before the JVM exits

    opens dev.loommcp.cli to info.picocli;
}
