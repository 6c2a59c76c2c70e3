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
# --compare REF [--short] [--rounds N]: loom-mcp's matrix rows on the build of REF (before) and on the working tree
# (after), alternating, with a verdict per figure against the run's noise (docs/benchmarks.md, "Before and after").
# REF's bench build is made once in a temporary git worktree and kept under ~/.cache/loom-mcp/bench/<commit>/.
if [[ "${1:-}" == "--compare" ]]; then
  [[ -n "${2:-}" && "${2:0:2}" != "--" ]] || { echo "bench.sh: --compare needs a git ref (a commit, branch or tag)" >&2; exit 2; }
  ref="$2"; shift 2
  sha=$(git rev-parse --verify --quiet "$ref^{commit}") || { echo "bench.sh: --compare: $ref is not a commit here" >&2; exit 2; }
  cache="${LOOM_BENCH_CACHE:-$HOME/.cache/loom-mcp/bench}/$sha"
  if [[ ! -f "$cache/complete" ]]; then
    echo "bench.sh: building the bench of $ref (${sha:0:12}) in a temporary worktree, once (kept in $cache) ..." >&2
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-mcp-bench-XXXXXX")
    cleanup() { git worktree remove --force "$tmp/src" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
    trap cleanup EXIT
    git worktree add --detach --quiet "$tmp/src" "$sha" >&2
    (cd "$tmp/src" && ./mvnw -o -q -B -pl mcp-bench -am -DskipTests package) >&2 \
      || { echo "bench.sh: building $ref's mcp-bench failed (offline: are its dependencies in ~/.m2?)" >&2; exit 1; }
    rm -rf "$cache"; mkdir -p "$cache"
    cp -r "$tmp/src/mcp-bench/target/lib" "$tmp/src/mcp-bench/target/mcp-bench.jar" "$cache/"
    echo "$ref" > "$cache/complete"
    cleanup; trap - EXIT
  else
    echo "bench.sh: the bench of $ref (${sha:0:12}) is cached in $cache" >&2
  fi
  ./mvnw -q -B -o -pl mcp-bench -am -DskipTests package >&2
  # a build from before the 0.1 API pass (no McpClient.Builder yet) runs the harness through an adapter: the
  # harness's classes that name that API (LoomClient, Clients) with its two old names (McpClientBuilder,
  # dev.loommcp.ProtocolMode), compiled against the build's own jars into $cache/adapter, ahead of the harness's
  # classes on that side only
  if [[ ! -d "$cache/adapter" ]] && ! unzip -l "$cache"/lib/mcp-core-*.jar 2>/dev/null | grep -q 'dev/loommcp/McpClient\$Builder.class'; then
    echo "bench.sh: $ref predates the 0.1 API: compiling the harness's LoomClient and Clients against its names into $cache/adapter" >&2
    src=$(mktemp -d "${TMPDIR:-/tmp}/loom-mcp-adapter-XXXXXX")
    for f in LoomClient Clients; do
      sed -e 's/^import dev\.loommcp\.config\.ProtocolMode;/import dev.loommcp.ProtocolMode;\nimport dev.loommcp.McpClientBuilder;/' \
          -e 's/McpClient\.Builder builder/McpClientBuilder builder/' \
          "mcp-bench/src/main/java/dev/loommcp/bench/$f.java" > "$src/$f.java"
    done
    "$JAVA_HOME/bin/javac" -nowarn -d "$src/out" -cp "mcp-bench/target/classes:$cache/lib/*" "$src"/*.java >&2 \
      || { rm -rf "$src"; echo "bench.sh: the harness's LoomClient does not compile against $ref's API" >&2; exit 1; }
    mv "$src/out" "$cache/adapter"; rm -rf "$src"
  fi
  after="working tree at $(git rev-parse --short HEAD)"
  [[ -z "$(git status --porcelain --untracked-files=no)" ]] || after="$after + uncommitted changes"
  exec "$JAVA_HOME/bin/java" -jar mcp-bench/target/mcp-bench.jar --compare-with "$cache" \
    --before-label "$ref (${sha:0:12})" --after-label "$after" "$@"
fi
# the TypeScript SDK client's pinned packages (the harness names what is missing if this cannot install them)
loom_node_packages "$ROOT" || echo "bench.sh: the TypeScript clients (ts, ts-http, ts-http-sse) cannot run" >&2
./mvnw -q -B -pl mcp-bench -am -DskipTests package >&2
exec "$JAVA_HOME/bin/java" -jar mcp-bench/target/mcp-bench.jar "${@:---quick}"
