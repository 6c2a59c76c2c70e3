/**
 * The handlers that answer what a server asks of the client (MCP 2025-11-25 "Client features"):
 * {@link dev.loommcp.handler.SamplingHandler} ({@code sampling/createMessage}),
 * {@link dev.loommcp.handler.ElicitationHandler} ({@code elicitation/create}) and
 * {@link dev.loommcp.handler.RootsHandler} ({@code roots/list}). Setting one on
 * {@link dev.loommcp.McpClient.Builder} declares the matching client capability. In the legacy era a handler answers
 * the server's request; in the modern era it fulfils a request's {@code input_required} answer. Each call runs on its
 * own virtual thread, so a handler may block (ask a user, call a model) and must honour its thread's interrupt.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.handler;

import org.jspecify.annotations.NullMarked;
