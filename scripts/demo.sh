#!/usr/bin/env bash
# The main job: build the `mcp` CLI and use it against the reference MCP server (server-everything) over stdio:
# print the server's identity, list its tools, and call `echo`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/env.sh"
loom_pick_jdk
loom_node_packages "$ROOT"
cd "$ROOT"
if [[ ! -f mcp-cli/target/mcp.jar ]] || [[ -n "$(find . -path ./test-servers -prune -o \( -path '*/src/*' -o -name pom.xml \) -type f -newer mcp-cli/target/mcp.jar -print -quit)" ]]; then
  echo "building mcp-cli/target/mcp.jar ..." >&2
  ./mvnw -q -B -DskipTests package >&2
fi
SERVER="node test-servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
MCP=(mcp-cli/mcp --stdio "$SERVER")   # the launcher: JVM flags and class-data archive for a fast start
echo "\$ mcp --stdio '$SERVER' info"; "${MCP[@]}" info
echo; echo "\$ mcp --stdio '$SERVER' tools"; "${MCP[@]}" tools
echo; echo "\$ mcp --stdio '$SERVER' call echo '{\"message\":\"hello from loom-mcp\"}'"
"${MCP[@]}" call echo '{"message":"hello from loom-mcp"}'
