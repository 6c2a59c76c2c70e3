#!/usr/bin/env bash
# A private, throw-away PostgreSQL for one test run (docs/fleet.md, "Tests"). No Docker: Debian's postgresql package
# (initdb and pg_ctl under /usr/lib/postgresql/<major>/bin, not on PATH), run as the postgres user when started by
# root (initdb refuses root), on an ephemeral loopback port (PostgreSQL cannot bind port 0: a free port is picked
# first, and the start is retried on another port if it was taken meanwhile) and a unix socket in a private directory.
# Data, socket and log live in one mktemp directory that stop removes. fsync is off: the data is thrown away.
#
#   scripts/pg.sh start [PID] starts a server; prints shell assignments to eval:
#                             LOOMMCP_PG_URL (the JDBC URL the tests read) and LOOMMCP_PG_DIR (the server's directory)
#   scripts/pg.sh stop DIR    stops the server of DIR (immediate shutdown) and removes DIR; never fails
#   scripts/pg.sh url DIR     prints the JDBC URL of the server of DIR
#   scripts/pg.sh restart DIR [fast|immediate]
#                             restarts the server of DIR on the same port and data (pg_ctl restart; default fast:
#                             open connections are ended; immediate: as after a crash, with recovery); for tests of
#                             what clients do while the database goes away (mcp-it's fleet tests)
#   scripts/pg.sh run CMD...  starts a server, runs CMD with LOOMMCP_PG_URL and LOOMMCP_PG_DIR exported, stops the
#                             server (a trap: also
#                             on error and on SIGINT/SIGTERM), exits with CMD's status
#
# start first stops the servers of earlier runs that were killed before their trap ran (a directory whose recorded
# owner process is gone). Exit status 2 with a message on stderr when no PostgreSQL server package is installed.
set -euo pipefail

PREFIX=loommcp-pg.

pg_bin() { # the bin directory of the newest installed PostgreSQL server (postgresql-15 on Debian 12)
  local d best=""
  if command -v dpkg >/dev/null 2>&1; then
    d=$(dpkg -L postgresql-15 2>/dev/null | grep '/bin/pg_ctl$' | head -1 || true)
    [[ -n "$d" ]] && { dirname "$d"; return 0; }
  fi
  for d in /usr/lib/postgresql/*/bin; do [[ -x "$d/pg_ctl" && -x "$d/initdb" ]] && best="$d"; done
  [[ -n "$best" ]] && { echo "$best"; return 0; }
  echo "pg.sh: no PostgreSQL server found (looked for Debian's postgresql-15 and /usr/lib/postgresql/*/bin);" \
       "install it with: apt-get install -y postgresql-15" >&2
  return 2
}

as_pg() { # runs a PostgreSQL binary as the postgres user when root (initdb and pg_ctl refuse root)
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
  else
    shuf -i 20000-60999 -n 1
  fi
}

stop_dir() { # $1 = a server directory; stops its server and removes it; never fails
  local dir="$1" bin pid
  [[ -d "$dir" && "$(basename "$dir")" == "$PREFIX"* ]] || return 0
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null || true)
    bin=$(cat "$dir/bin" 2>/dev/null || true)
    if [[ -n "$bin" ]]; then
      as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
    fi
    # pg_ctl may return a moment before the postmaster is gone; a server pg_ctl could not stop is killed
    for _ in $(seq 1 50); do [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}

stop_stale() { # servers of earlier runs whose owner process is gone
  local dir owner tmp="${TMPDIR:-/tmp}"
  for dir in "$tmp/$PREFIX"*; do
    [[ -d "$dir" ]] || continue
    owner=$(cat "$dir/owner" 2>/dev/null || true)
    if [[ -z "$owner" ]] || ! kill -0 "$owner" 2>/dev/null; then
      echo "pg.sh: stopping the PostgreSQL of an earlier run that did not stop it ($dir)" >&2
      stop_dir "$dir"
    fi
  done
}

url_of() { echo "jdbc:postgresql://127.0.0.1:$(cat "$1/port")/loomtest?user=postgres"; }

start() { # $1 = the owner pid (the run the server belongs to); prints the assignments
  local owner="$1" bin dir port attempt
  bin=$(pg_bin) || return 2
  stop_stale
  dir=$(mktemp -d "${TMPDIR:-/tmp}/${PREFIX}XXXXXX")
  chmod 755 "$dir"   # the postgres user must reach the subdirectories
  echo "$owner" > "$dir/owner"
  echo "$bin" > "$dir/bin"
  mkdir "$dir/data" "$dir/sock" "$dir/log"
  [[ $(id -u) -eq 0 ]] && chown postgres:postgres "$dir/data" "$dir/sock" "$dir/log"
  if ! as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync --no-instructions \
      >"$dir/log/initdb.log" 2>&1; then
    echo "pg.sh: initdb failed:" >&2; cat "$dir/log/initdb.log" >&2; stop_dir "$dir"; return 1
  fi
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null 2>&1; then
      echo "$port" > "$dir/port"
      if as_pg "$bin/createdb" -h "$dir/sock" -p "$port" -U postgres loomtest >/dev/null 2>"$dir/log/createdb.log"; then
        echo "LOOMMCP_PG_URL='$(url_of "$dir")'"
        echo "LOOMMCP_PG_DIR='$dir'"
        return 0
      fi
      echo "pg.sh: createdb failed:" >&2; cat "$dir/log/createdb.log" >&2; stop_dir "$dir"; return 1
    fi
    grep -q 'could not bind\|Address already in use' "$dir/log/server.log" 2>/dev/null || break
  done
  echo "pg.sh: the PostgreSQL server did not start; its log:" >&2
  tail -20 "$dir/log/server.log" >&2 || true
  stop_dir "$dir"
  return 1
}

restart_dir() { # $1 = a running server's directory, $2 = the shutdown mode
  local dir="$1" mode="${2:-fast}" bin
  [[ "$mode" == fast || "$mode" == immediate ]] || { echo "pg.sh: restart mode is fast or immediate, not $mode" >&2; return 64; }
  bin=$(cat "$dir/bin")
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log/server.log" -m "$mode" -w -t 30 restart >/dev/null
}

case "${1:-}" in
  start) start "${2:-$PPID}" ;;
  stop) [[ $# -eq 2 ]] || { echo "usage: pg.sh stop DIR" >&2; exit 64; }; stop_dir "$2" ;;
  url) [[ $# -eq 2 && -f "$2/port" ]] || { echo "usage: pg.sh url DIR (a running server's directory)" >&2; exit 64; }
       url_of "$2" ;;
  restart) [[ ($# -eq 2 || $# -eq 3) && -f "$2/port" && "$(basename "$2")" == "$PREFIX"* ]] \
             || { echo "usage: pg.sh restart DIR [fast|immediate] (a running server's directory)" >&2; exit 64; }
           restart_dir "$2" "${3:-fast}" ;;
  run)
    shift
    [[ $# -ge 1 ]] || { echo "usage: pg.sh run CMD..." >&2; exit 64; }
    assignments=$(start "$$")
    eval "$assignments"
    export LOOMMCP_PG_URL LOOMMCP_PG_DIR
    child=""
    # the trap stops the server and the command (the trap does not end a foreground child by itself)
    trap '[[ -n "$child" ]] && kill -TERM "$child" 2>/dev/null; stop_dir "$LOOMMCP_PG_DIR"' EXIT
    trap 'exit 143' TERM INT
    "$@" &
    child=$!
    status=0; wait "$child" || status=$?
    child=""
    exit "$status" ;;
  *) echo "usage: pg.sh start | stop DIR | url DIR | restart DIR [fast|immediate] | run CMD..." >&2; exit 64 ;;
esac
