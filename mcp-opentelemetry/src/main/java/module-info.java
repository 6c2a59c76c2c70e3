/**
 * loom-mcp OpenTelemetry: the OpenTelemetry semantic conventions for MCP on a loom-mcp client (CLIENT spans, the
 * {@code mcp.client.operation.duration} and {@code mcp.client.session.duration} histograms) and W3C trace context
 * carried to the server in {@code params._meta} (SEP-414). See {@link dev.loommcp.opentelemetry.McpTelemetry}. Uses
 * only the core's public API and {@code opentelemetry-api} (nothing newer than its 1.55 surface).
 */
@SuppressWarnings("requires-transitive-automatic")
module dev.loommcp.opentelemetry {
    requires transitive dev.loommcp.core;
    requires static transitive org.jspecify;
    requires transitive io.opentelemetry.api;
    requires io.opentelemetry.context;

    exports dev.loommcp.opentelemetry;
}
