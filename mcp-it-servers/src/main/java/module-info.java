/**
 * Launchers of the real servers that loom-mcp's own integration tests talk to: the pinned reference servers and the
 * project's fixture servers in {@code test-servers/} (not published). The test
 * fixtures a user would want (in-memory server, recording transport and sink, leak check) are in
 * {@code dev.loommcp.testing} (artifact {@code mcp-testing}).
 */
module dev.loommcp.it.servers {
    requires transitive dev.loommcp.core;
    requires java.net.http;
    exports dev.loommcp.it.servers;
}
