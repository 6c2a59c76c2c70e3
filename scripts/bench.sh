#!/usr/bin/env bash
# Builds the benchmark module and runs it: the matrix of loom-mcp, a raw loop per transport, the official MCP Java SDK
# and the TypeScript SDK's client (test-servers/bench-ts-client.mjs) against one minimal dual-era echo server, over
# stdio and Streamable HTTP (JSON and SSE answers), both eras, with a targets table; --eras compares the protocol eras
# alone. Arguments go to the harness: --quick (default), --full, --check, --eras, --clients ... (see
# docs/benchmarks.md). Prints markdown tables on stdout; progress on stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/env.sh"
loom_pick_jdk
cd "$ROOT"
# the TypeScript SDK client's pinned packages (the harness names what is missing if this cannot install them)
loom_node_packages "$ROOT" || echo "bench.sh: the TypeScript clients (ts, ts-http, ts-http-sse) cannot run" >&2
./mvnw -q -B -pl mcp-bench -am -DskipTests package >&2
exec "$JAVA_HOME/bin/java" -jar mcp-bench/target/mcp-bench.jar "${@:---quick}"
