/**
 * The loom-mcp client API: {@link dev.loommcp.McpClient} and its builder, {@link dev.loommcp.McpTool} handles,
 * per-call {@link dev.loommcp.RequestOptions} and {@link dev.loommcp.CancellationToken}, the handlers a server may call
 * (elicitation, sampling, roots), listeners, and the sealed {@link dev.loommcp.McpException} family.
 *
 * <p>Every blocking call is safe and cheap on virtual threads, honours its deadline, token and thread interrupt, and
 * cleans up (pending entry removed, {@code notifications/cancelled} sent) before it throws.
 */
package dev.loommcp;
