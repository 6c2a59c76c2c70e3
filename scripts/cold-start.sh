#!/usr/bin/env bash
# Measures the cold start of the `mcp` CLI: runs one command line under several configurations, alternately (one run
# of each configuration per round, so a busy machine slows them all alike), and prints a markdown table of the wall
# time and the CPU time (user + system, the CLI's JVM and the server together) of each: median, min, max, p25-p75.
#
# Usage: scripts/cold-start.sh [-n ROUNDS] [-w WARMUPS] NAME=COMMAND [NAME=COMMAND ...]
#   COMMAND is run by bash with stdout and stderr to /dev/null (the exit status must be 0), e.g.
#   scripts/cold-start.sh -n 15 \
#     "jar=$JAVA_HOME/bin/java -jar mcp-cli/target/mcp.jar --stdio '$SERVER' tools" \
#     "launcher=mcp-cli/mcp --stdio '$SERVER' tools"
#   WARMUPS (default 1) rounds run first and are not counted (the page cache, an archive made on first use).
# The raw times go to a temporary file, named on stderr.
set -euo pipefail
rounds=11 warmups=1
while getopts n:w: o; do
  case $o in
    n) rounds=$OPTARG ;;
    w) warmups=$OPTARG ;;
    *) echo "usage: $0 [-n ROUNDS] [-w WARMUPS] NAME=COMMAND..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
(( $# > 0 )) || { echo "usage: $0 [-n ROUNDS] [-w WARMUPS] NAME=COMMAND..." >&2; exit 2; }
names=() commands=()
for a in "$@"; do names+=("${a%%=*}"); commands+=("${a#*=}"); done
raw=$(mktemp "${TMPDIR:-/tmp}/cold-start.XXXXXX")
echo "raw times: $raw" >&2
timefile=$(mktemp "${TMPDIR:-/tmp}/cold-start-time.XXXXXX")
trap 'rm -f "$timefile"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1 - warmups; r <= rounds; r++)); do
  for i in "${!names[@]}"; do
    start=$(date +%s%N)
    if ! /usr/bin/time -f '%U %S' -o "$timefile" bash -c "${commands[$i]}" >/dev/null 2>&1; then
      echo "${names[$i]}: the command failed: ${commands[$i]}" >&2; exit 1
    fi
    end=$(date +%s%N)
    (( r >= 1 )) || continue
    read -r user sys < <(tail -1 "$timefile")
    echo "${names[$i]} $(( (end - start) / 1000000 )) $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')" >> "$raw"
  done
  echo "round $r of $rounds done" >&2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "| configuration | runs | wall median (ms) | wall min-max | wall p25-p75 | CPU median (ms) | CPU p25-p75 |"
echo "|---|---|---|---|---|---|---|"
stats() { # prints: count median min max p25 p75 of the numbers on stdin
  sort -n | awk '{ v[NR] = $1 } END {
    n = NR
    printf "%d %d %d %d %d %d\n", n, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n],
      v[int((n - 1) * 0.25) + 1], v[int((n - 1) * 0.75 + 0.5) + 1] }'
}
for name in "${names[@]}"; do
  read -r n wmed wmin wmax w25 w75 < <(awk -v k="$name" '$1 == k { print $2 }' "$raw" | stats)
  read -r _ cmed _ _ c25 c75 < <(awk -v k="$name" '$1 == k { print $3 }' "$raw" | stats)
  echo "| $name | $n | $wmed | $wmin-$wmax | $w25-$w75 | $cmed | $c25-$c75 |"
done
