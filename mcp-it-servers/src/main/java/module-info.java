/**
 * Launchers for the pinned reference servers, shared by the loom-mcp modules' tests (not published). The test
 * fixtures a user would want (in-memory server, recording transport and sink, leak check) are in
 * {@code dev.loommcp.testing} (artifact {@code mcp-testing}).
 */
module dev.loommcp.testkit {
    requires transitive dev.loommcp.core;
    requires java.net.http;
    exports dev.loommcp.testkit;
}
