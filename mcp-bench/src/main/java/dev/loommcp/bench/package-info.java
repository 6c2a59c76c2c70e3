/**
 * The stdio benchmark (not published): a minimal echo MCP server ({@link dev.loommcp.bench.EchoServer}), the clients
 * under test behind one interface (the raw JSON-RPC loop, loom-mcp, the official Java SDK sync and async), one JVM per
 * client run ({@link dev.loommcp.bench.ClientRun}) and the harness that alternates rounds and prints the tables
 * ({@link dev.loommcp.bench.Bench}). See {@code docs/benchmarks.md}.
 */
package dev.loommcp.bench;
