/**
 * loom-mcp's Streamable HTTP transport (MCP 2025-03-26 .. 2025-11-25, and the stateless 2026-07-28) and the HTTP+SSE
 * transport of 2024-11-05 ({@code SseTransport}) on {@code java.net.http.HttpClient}.
 */
module dev.loommcp.transport.http {
    // JSpecify nullness annotations in the API; static: not needed at run time, transitive: readers see them
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.core;
    requires transitive java.net.http; // its types are in the API (HttpHeaders, the HttpConnector SPI)

    exports dev.loommcp.transport.http;

    // connectors for endpoints other than http(s), such as unix: (dev.loommcp.transport.unix)
    uses dev.loommcp.transport.http.HttpConnector;
}
