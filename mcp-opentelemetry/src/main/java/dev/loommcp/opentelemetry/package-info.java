/**
 * OpenTelemetry for loom-mcp clients: {@link dev.loommcp.opentelemetry.McpTelemetry} gives the interceptors and the
 * listener that record the OpenTelemetry semantic conventions for MCP (status: Development): a {@code CLIENT} span per
 * request the client sends, named {@code {mcp.method.name} {target}}, the {@code mcp.client.operation.duration} and
 * {@code mcp.client.session.duration} histograms, and the W3C trace context ({@code traceparent}, {@code tracestate},
 * {@code baggage}) injected into each request's {@code params._meta} (SEP-414), so that a server, stdio ones
 * included, joins the caller's trace. {@code docs/telemetry.md} lists what is recorded.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.loommcp.opentelemetry;

import org.jspecify.annotations.NullMarked;
