/**
 * The handlers that answer what a server asks of the client (MCP 2025-11-25 "Client features"):
 * {@link dev.loommcp.handler.SamplingHandler} ({@code sampling/createMessage}),
 * {@link dev.loommcp.handler.ElicitationHandler} ({@code elicitation/create}) and
 * {@link dev.loommcp.handler.RootsHandler} ({@code roots/list}). Setting one on
 * {@link dev.loommcp.McpClient.Builder} declares the matching client capability. In the legacy era a handler answers
 * the server's request; in the modern era it fulfils a request's {@code input_required} answer. Each call runs on its
 * own virtual thread, so a handler may block (ask a user, call a model) and must honour its thread's interrupt.
 */
package dev.loommcp.handler;
