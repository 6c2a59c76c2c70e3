#!/usr/bin/env bash
# Builds the benchmark module and runs it: loom-mcp, a raw JSON-RPC loop and the official MCP Java SDK against the
# same minimal echo server over stdio; with --eras, loom-mcp in the modern (2026-07-28) and the legacy era and raw loops
# of both against one dual-era echo server, over stdio and HTTP. Arguments go to the harness: --quick (default),
# --full, --check, --eras, ... (see docs/benchmarks.md). Prints a markdown table on stdout; progress on stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/env.sh"
loom_pick_jdk
cd "$ROOT"
./mvnw -q -B -pl mcp-bench -am -DskipTests package >&2
exec "$JAVA_HOME/bin/java" -jar mcp-bench/target/mcp-bench.jar "${@:---quick}"
