/**
 * The loom-mcp client API, what the quickstart and the common calls need: {@link dev.loommcp.McpClient} and its
 * {@link dev.loommcp.McpClient.Builder}, the per-feature views it implements ({@link dev.loommcp.McpTools} with
 * {@link dev.loommcp.McpToolCaller}, {@link dev.loommcp.McpResources}, {@link dev.loommcp.McpPrompts},
 * {@link dev.loommcp.McpUtilities}, and the host's {@link dev.loommcp.McpSkillServer}), {@link dev.loommcp.McpTool}
 * handles, per-call {@link dev.loommcp.RequestOptions} with {@link dev.loommcp.Deadline} and
 * {@link dev.loommcp.CancellationToken}, the one {@link dev.loommcp.Registration} handle, the request context
 * ({@link dev.loommcp.McpContext}, {@link dev.loommcp.McpScope}), and the sealed {@link dev.loommcp.McpException}
 * family. Listeners and subscriptions are in {@code dev.loommcp.event}, the handlers a server may call (elicitation,
 * sampling, roots) in {@code dev.loommcp.handler}, the protocol choices in {@code dev.loommcp.config}.
 *
 * <p>Every blocking call is safe and cheap on virtual threads, honours its deadline, token and thread interrupt, and
 * cleans up (pending entry removed, {@code notifications/cancelled} sent) before it throws.
 *
 * <h2>Null policy</h2>
 * A parameter accepts {@code null} only where its documentation says so, and then {@code null} means "none" or "the
 * default":
 * <ul>
 *   <li>a list {@code cursor}: the first page;</li>
 *   <li>request {@code params}, tool {@code arguments}, prompt {@code arguments}, completion {@code context}: none
 *       (the member is left out of the request);</li>
 *   <li>{@link dev.loommcp.McpTools#setToolMeta(java.util.Map) setToolMeta(null)}: clears it;</li>
 *   <li>the builder's {@link dev.loommcp.McpClient.Builder#listener listener} and
 *       {@link dev.loommcp.McpClient.Builder#eventListener eventListener}: none;</li>
 *   <li>every setter of {@link dev.loommcp.RequestOptions.Builder} but {@code putMeta}'s key: not set (the
 *       client's default applies); a {@code _meta} value may be JSON {@code null};</li>
 *   <li>{@link dev.loommcp.CancellationToken#cancel(String) cancel(null)}: the reason {@code "cancelled"}.</li>
 * </ul>
 * Every other parameter must not be {@code null}: the call throws {@link java.lang.NullPointerException} at once
 * (the asynchronous variants too, instead of returning a failed future), before anything is sent, with the
 * parameter's name as its message. {@link dev.loommcp.RequestOptions} are never {@code null}: pass
 * {@link dev.loommcp.RequestOptions#DEFAULT} for none. Accessors of a state that may be unset return
 * {@link java.util.Optional}, never {@code null}: {@link dev.loommcp.McpClient#protocolVersion()} and the other
 * handshake results are {@link java.util.Optional#empty() empty} before {@link dev.loommcp.McpClient#connect()}
 * completed; the optional values of {@link dev.loommcp.RequestOptions} are {@link java.util.Optional} too, and its
 * {@code meta()} is empty when none was set. Only record components are {@code null} when absent (below).
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
package dev.loommcp;

import org.jspecify.annotations.NullMarked;
