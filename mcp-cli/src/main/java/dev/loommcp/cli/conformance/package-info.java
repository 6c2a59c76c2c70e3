/**
 * The conformance client: what {@code mcp conformance <server-url>} does for each scenario of the official MCP
 * conformance suite ({@code @modelcontextprotocol/conformance}), picked by {@code MCP_CONFORMANCE_SCENARIO}.
 */
package dev.loommcp.cli.conformance;
