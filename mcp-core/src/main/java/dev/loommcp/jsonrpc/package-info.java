/**
 * JSON-RPC 2.0 envelopes as MCP uses them (MCP spec, "Base protocol: messages"): {@link
 * dev.loommcp.jsonrpc.JsonRpcMessage} and its four kinds, {@link dev.loommcp.jsonrpc.RequestId} and {@link
 * dev.loommcp.jsonrpc.JsonRpcError}. Payloads are plain JSON values, never library-specific tree types.
 */
package dev.loommcp.jsonrpc;
