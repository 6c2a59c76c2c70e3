#!/usr/bin/env bash
# Runs every test: the Maven build with all unit and integration tests (against real child processes and the
# pinned reference server), then the official MCP conformance suite against the CLI's conformance client.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/env.sh"
loom_pick_jdk
loom_node_packages "$ROOT"
cd "$ROOT"
echo "JDK: $JAVA_HOME ($("$JAVA_HOME/bin/java" -version 2>&1 | head -1)); node $(node --version)" >&2
./mvnw -B -ntp verify "$@"
if [[ -x conformance/run.sh ]]; then
  conformance/run.sh
fi
