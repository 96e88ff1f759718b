#!/usr/bin/env bash
# Runs ../shared/tools/openapi-check against the real daemon, once per seed, with the request
# files of tests/openapi/. Exit 77 (skipped) when the tool or Node.js >= 20 is missing.
# Usage: openapi_check.sh BIN SOURCE_DIR SHARED_DIR
set -euo pipefail
BIN=$1; SRC=$2; SHARED=$3
TOOL="$SHARED/tools/openapi-check/openapi-check"
if [ ! -x "$TOOL" ]; then echo "SKIPPED: $TOOL not found (no ../shared beside the project)"; exit 77; fi
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "SKIPPED: openapi-check needs Node.js >= 20 (found: $(node --version 2>/dev/null || echo none))"; exit 77
fi
. "$SRC/tests/integration/daemon_lib.sh"
trap '[ -n "${DAEMON_PID:-}" ] && kill "$DAEMON_PID" 2>/dev/null || true' EXIT

status=0
run_check() {  # run_check SEED REQUESTS [USER]: with USER, every request carries USER's token
  local token_args=()
  if [ -n "${3:-}" ]; then
    local token
    token=$("$BIN" token --user "$3" --seed "$1") || { echo "no token for $3"; status=1; return; }
    token_args=(--token "$token")
  fi
  start_daemon "$BIN" --seed "$1"
  "$TOOL" --base "http://127.0.0.1:$DAEMON_PORT" --requests "$2" --unknown-props fail --all-ops \
    ${token_args[@]+"${token_args[@]}"} || status=1
  stop_daemon
  [ "$DAEMON_EXIT" = 0 ] || { echo "daemon exited $DAEMON_EXIT"; status=1; }
}
# alice is a wallet user of the default network: the validator requests run with her token unless
# they set their own Authorization header (or remove it with null).
run_check "$SRC/config/default-network.json" "$SRC/tests/openapi/default-network.json" alice
run_check "$SRC/tests/data/seed-no-lsu.json" "$SRC/tests/openapi/no-lsu.json"
exit $status
