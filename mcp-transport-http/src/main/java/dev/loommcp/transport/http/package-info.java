/**
 * The Streamable HTTP transport of MCP (2025-03-26 .. 2025-11-25, and the stateless 2026-07-28):
 * {@link dev.loommcp.transport.http.HttpTransport}
 * and its builder; the HTTP+SSE transport of 2024-11-05, {@link dev.loommcp.transport.http.SseTransport}, which
 * {@code HttpTransport} also falls back to for a server that offers only that one; the {@link dev.loommcp.transport.http.RequestSigner} hook,
 * {@link dev.loommcp.transport.http.McpHttpStatusException} with its
 * {@link dev.loommcp.transport.http.AuthChallenge}s, and the {@link dev.loommcp.transport.http.HeaderRules} that
 * caller headers follow. Built on {@code java.net.http.HttpClient}; endpoints of another scheme (such as
 * {@code unix:}) are carried by an {@link dev.loommcp.transport.http.HttpConnector} found with the service loader.
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
package dev.loommcp.transport.http;

import org.jspecify.annotations.NullMarked;
