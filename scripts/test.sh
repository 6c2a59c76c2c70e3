#!/usr/bin/env bash
# Runs every test: the Maven build with all unit and integration tests (against real child processes and the
# pinned reference server) and the example apps of examples/ (profile examples: each built and run by its tests),
# the consumer-project test of the published artifacts (scripts/consumer-test.sh), then the
# official MCP conformance suite (seven legs: its client scenarios against the CLI's
# conformance client at the 2025-11-25, 2026-07-28 and 2025-03-26 wires, the extension scenarios at two wires, and its
# tasks-* and sep-2640-skills-* server scenarios refereeing test-servers/tasks-fixture.mjs and skills-fixture.mjs; see
# conformance/run.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$ROOT/scripts/env.sh"
loom_pick_jdk
loom_node_packages "$ROOT"
cd "$ROOT"
echo "JDK: $JAVA_HOME ($("$JAVA_HOME/bin/java" -version 2>&1 | head -1)); node $(node --version)" >&2
status=0
# a private, throw-away PostgreSQL for the store tests (mcp-store-jdbc and mcp-it's fleet tests read LOOMMCP_PG_URL;
# see docs/fleet.md):
# started here unless the caller gives one, stopped when this script ends (normally, on error, on SIGINT/SIGTERM)
# (no PostgreSQL installed: the store tests are skipped, or fail when CI is set, as .ci/run sets it)
if [[ -z "${LOOMMCP_PG_URL:-}" ]]; then
  pg_status=0
  pg_env=$(scripts/pg.sh start $$) || pg_status=$?
  if (( pg_status == 0 )); then
    eval "$pg_env"
    export LOOMMCP_PG_URL LOOMMCP_PG_DIR   # the directory: mcp-it's fleet tests restart the server (pg.sh restart)
    trap 'scripts/pg.sh stop "$LOOMMCP_PG_DIR"' EXIT
    trap 'exit 143' TERM INT
  elif (( pg_status == 2 )); then
    echo "no PostgreSQL server installed: the mcp-store-jdbc tests will be skipped (fail when CI is set)" >&2
  else
    echo "could not start the test PostgreSQL (scripts/pg.sh)" >&2; exit 1
  fi
fi
# reports of an earlier run (a renamed test class) must not be counted below
find . -path ./test-servers -prune -o -type d \( -name surefire-reports -o -name failsafe-reports \) -path '*/target/*' -print0 \
  | xargs -0 -r rm -rf
./mvnw -B -ntp verify -Pexamples "$@" || status=$?   # -Pexamples: the apps of examples/ are built and run too
built=$status   # the steps below need the build; each of them runs when it passed
# the published artifacts as a user gets them: a consumer project on the class path and the module path, the BOM,
# the dependency tree, reproducible jars (scripts/consumer-test.sh; nothing of ours goes to ~/.m2)
consumer_passed=0; consumer_failed=0
if (( built == 0 )); then
  if scripts/consumer-test.sh; then consumer_passed=1; else consumer_failed=1; status=1; fi
fi
conf_passed=0; conf_failed=0
if (( built == 0 )) && [[ -x conformance/run.sh ]]; then
  conf_log=$(mktemp)
  conformance/run.sh | tee "$conf_log" || status=$?
  read -r conf_passed conf_failed < <(sed -n 's/^conformance: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$conf_log" | tail -1) || true
  conf_passed=${conf_passed:-0}; conf_failed=${conf_failed:-0}
  conf_legs=$(grep '^leg ' "$conf_log" || true)   # one line per leg (2025-11-25, 2026-07-28, 2025-03-26, extensions, extensions-2026-07-28, tasks-server)
  rm -f "$conf_log"
fi
# One closing line for the whole run: the Surefire reports of every module plus the conformance scenarios.
read -r tests failures skipped < <(find . -path ./test-servers -prune -o -path '*/target/*-reports/TEST-*.xml' -print0 \
  | xargs -0 -r grep -h -o '<testsuite [^>]*>' \
  | awk '{ t=$0; match(t, /tests="[0-9]+"/); n+=substr(t, RSTART+7, RLENGTH-8);
           match(t, /failures="[0-9]+"/); f+=substr(t, RSTART+10, RLENGTH-11);
           match(t, /errors="[0-9]+"/); f+=substr(t, RSTART+8, RLENGTH-9);
           match(t, /skipped="[0-9]+"/); s+=substr(t, RSTART+9, RLENGTH-10) }
         END { print n+0, f+0, s+0 }')
echo
[[ -n "${conf_legs:-}" ]] && sed 's/^/conformance /' <<<"$conf_legs"
# every skipped test with the reason its assumption gave (root cannot be refused a chmod-000 socket, a signal ignored
# in this process tree, a tool not installed): the count below is never a bare number
find . -path ./test-servers -prune -o -path '*/target/*-reports/TEST-*.xml' -print0 \
  | xargs -0 -r cat \
  | awk 'BEGIN { RS = "<" }
         /^testcase / { name = ""; cls = "";
                        if (match($0, / name="[^"]*"/)) name = substr($0, RSTART + 7, RLENGTH - 8);
                        if (match($0, /classname="[^"]*"/)) cls = substr($0, RSTART + 11, RLENGTH - 12) }
         function show(why) { gsub(/&quot;/, "\"", why); gsub(/&apos;/, "\047", why); gsub(/&lt;/, "<", why);
                               gsub(/&gt;/, ">", why); gsub(/&amp;/, "\\&", why);
                               c = cls; sub(/.*\./, "", c); print "skipped: " c "." name ": " why; pending = 0 }
         pending && /^!\[CDATA\[/ { why = substr($0, 9); sub(/\n.*/, "", why); sub(/^[A-Za-z0-9_.$]*: /, "", why);
                                    sub(/^Assumption failed: /, "", why); show(why == "" ? "no reason given" : why);
                                    next }
         pending      { show("no reason given") }
         /^skipped/   { if (match($0, /message="[^"]*"/)) show(substr($0, RSTART + 9, RLENGTH - 10));
                        else if ($0 ~ /\/>/) show("no reason given");
                        else pending = 1 }' \
  | sort -u
echo "all tests: $((tests - failures - skipped + conf_passed + consumer_passed)) passed, $((failures + conf_failed + consumer_failed)) failed, $skipped skipped"
exit "$status"
