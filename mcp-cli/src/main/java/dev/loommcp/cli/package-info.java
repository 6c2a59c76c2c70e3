/**
 * The {@code mcp} command-line client: connects to one MCP server over stdio (or Streamable HTTP) and lists or calls
 * its tools, resources and prompts. {@link dev.loommcp.cli.Main} is the entry point; {@code docs/cli.md} documents
 * the commands, options and exit codes.
 */
package dev.loommcp.cli;
