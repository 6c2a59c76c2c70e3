# Sourced by the other scripts: picks a JDK 21+ (the build needs it; many machines default to an older java) and
# installs the pinned Node packages the tests and the demo use (test-servers/package-lock.json), once.
# Fails with a clear message when no JDK 21+ or no Node 20+ is found.

loom_java_major() { # $1 = JAVA_HOME; prints the feature version or nothing
  [[ -x "$1/bin/java" ]] || return 0
  # the JDK's release file says it without starting a JVM (about 0.1 to 0.3 s of the launcher's start)
  local v; v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)
  [[ -n "$v" ]] && { echo "$v"; return 0; }
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1
}

loom_pick_jdk() {
  local candidates=() c major
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
  candidates+=(/usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-21-jdk-amd64)
  for c in /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do [[ -d "$c" ]] && candidates+=("$c"); done
  if command -v java >/dev/null 2>&1; then
    c=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")"); candidates+=("$c")
  fi
  for c in "${candidates[@]}"; do
    major=$(loom_java_major "$c" || true)   # a broken JDK is skipped, not fatal
    if [[ -n "$major" && "$major" -ge 21 ]]; then export JAVA_HOME="$c"; return 0; fi
  done
  echo "loom-mcp needs a JDK 21 or newer; none found (looked at JAVA_HOME and /usr/lib/jvm). Install one and set JAVA_HOME." >&2
  return 1
}

loom_node_packages() { # installs test-servers/node_modules from the lock file when missing or out of date
  local root="$1" dir="$1/test-servers"
  command -v node >/dev/null 2>&1 || { echo "loom-mcp's tests and demo need Node.js 20+ (node not found on PATH)" >&2; return 1; }
  local nmajor; nmajor=$(node -p 'process.versions.node.split(".")[0]')
  (( nmajor >= 20 )) || { echo "loom-mcp's tests and demo need Node.js 20+ (found $(node --version))" >&2; return 1; }
  # install when the lock file changed since the last install (a stamp holds its hash; mtimes lie after a checkout)
  local want have=""
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  [[ -f "$dir/node_modules/.loom-lock.sha256" ]] && have=$(cat "$dir/node_modules/.loom-lock.sha256")
  if [[ "$want" != "$have" || ! -f "$dir/node_modules/@modelcontextprotocol/server-everything/package.json" ]]; then
    echo "installing the pinned Node packages (npm ci in test-servers/) ..." >&2
    (cd "$dir" && timeout 600 npm ci --no-audit --no-fund --loglevel=error) >&2 || { echo "npm ci failed in $dir" >&2; return 1; }
    echo "$want" > "$dir/node_modules/.loom-lock.sha256"
  fi
}
