/**
 * The protocol choices a client is configured with: which protocol era it speaks
 * ({@link dev.loommcp.config.ProtocolMode}, set with {@link dev.loommcp.McpClient.Builder#protocolMode}; the
 * {@link dev.loommcp.config.Era} a connection ended up in, from {@link dev.loommcp.McpClient#era()}) and what a tool
 * result that fails its {@code outputSchema} does ({@link dev.loommcp.config.OutputSchemaValidation}). All are
 * immutable values.
 */
package dev.loommcp.config;
