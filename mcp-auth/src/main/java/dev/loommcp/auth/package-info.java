/**
 * The OAuth 2.1 client of MCP "Authorization" (2025-06-18 .. 2026-07-28, and the 2025-03-26 fallbacks): see
 * {@link dev.loommcp.auth.McpOAuth}.
 */
package dev.loommcp.auth;
