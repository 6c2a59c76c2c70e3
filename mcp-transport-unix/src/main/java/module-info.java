/**
 * {@code unix:} endpoints for loom-mcp's Streamable HTTP transport: MCP over HTTP/1.1 on a unix domain socket, on
 * Jetty's HTTP client. Add this module (artifact {@code mcp-transport-unix}) and
 * {@code HttpTransport.newBuilder("unix:/run/app.sock:/mcp")} works like an {@code http://} endpoint; see
 * {@link dev.loommcp.transport.unix.UnixConnector}.
 */
module dev.loommcp.transport.unix {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.transport.http;
    requires org.eclipse.jetty.client;

    exports dev.loommcp.transport.unix;

    provides dev.loommcp.transport.http.HttpConnector with dev.loommcp.transport.unix.UnixConnector;
}
