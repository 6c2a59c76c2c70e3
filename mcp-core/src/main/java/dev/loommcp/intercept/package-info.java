/**
 * Interceptors: code of the application that every request passes through, to observe, time, veto, rewrite or answer
 * it (policies, approval, audit, redaction, telemetry). In the spirit of OkHttp's interceptors: one method, a chain
 * object, {@code proceed}.
 *
 * <ul>
 *   <li>{@link dev.loommcp.intercept.McpInterceptor}: the requests the client sends ({@code tools/call},
 *       {@code resources/read}, listings, task polls, ...), registered with
 *       {@link dev.loommcp.McpClient.Builder#addInterceptor}. It sees an {@link dev.loommcp.intercept.OutgoingRequest}
 *       (method, typed params, {@link dev.loommcp.RequestOptions}), the request's {@link dev.loommcp.McpContext} and
 *       the {@link dev.loommcp.intercept.McpConnection} (era, protocol version, session, transport, server), and
 *       returns an {@link dev.loommcp.intercept.McpResponse}.</li>
 *   <li>{@link dev.loommcp.intercept.ServerRequestInterceptor}: the requests a server asks of the client
 *       ({@code sampling/createMessage}, {@code elicitation/create}, {@code roots/list}: 2025-era server requests and
 *       the 2026 era's {@code inputRequests}), registered with
 *       {@link dev.loommcp.McpClient.Builder#addServerRequestInterceptor}. It sees a
 *       {@link dev.loommcp.intercept.ServerRequest} and returns the answer the client's handler would give.</li>
 * </ul>
 *
 * <p>The order is the order of registration: the first registered is the outermost (it sees the request first and
 * the response last). Interceptors run on the caller's thread inside the request's scope
 * ({@link dev.loommcp.McpContext#current()} is the request); a veto is {@link dev.loommcp.McpVetoedException}, any
 * other exception an interceptor throws fails its call with {@link dev.loommcp.McpInterceptorException} and leaves the
 * client usable. With no interceptor registered nothing of this runs. {@code docs/policies.md} has worked examples.
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent is a {@code @Nullable} component, never
 * an {@code Optional}; a method that looks something up, or reads an option or a state that may be unset, returns
 * {@link java.util.Optional}; a collection is empty, never {@code null}, unless it mirrors a JSON member that may be
 * absent; a map of free-form JSON is {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value.
 */
@NullMarked
package dev.loommcp.intercept;

import org.jspecify.annotations.NullMarked;
