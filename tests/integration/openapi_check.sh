#!/usr/bin/env bash
# Runs ../shared/tools/openapi-check against the real daemon with the request files of
# tests/openapi/: per seed, per release line, each against that line's specs. Exit 77 (skipped)
# when the tool or Node.js >= 20 is missing.
# Usage: openapi_check.sh BIN SOURCE_DIR SHARED_DIR
set -euo pipefail
BIN=$1; SRC=$2; SHARED=$3
TOOL="$SHARED/tools/openapi-check/openapi-check"
if [ ! -x "$TOOL" ]; then echo "SKIPPED: $TOOL not found (no ../shared beside the project)"; exit 77; fi
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "SKIPPED: openapi-check needs Node.js >= 20 (found: $(node --version 2>/dev/null || echo none))"; exit 77
fi
. "$SRC/tests/integration/daemon_lib.sh"
WORK=$(mktemp -d)
trap '[ -n "${DAEMON_PID:-}" ] && kill "$DAEMON_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

# requests OUT DROP FILE...: the requests of the FILEs (those present) in one file, without those
# whose name starts with one of the comma-separated prefixes of DROP.
requests() {
  local out=$1 drop=$2; shift 2
  node -e '
    const fs = require("fs");
    const [out, drop, ...files] = process.argv.slice(1);
    const prefixes = drop ? drop.split(",") : [];
    const all = files.filter(f => fs.existsSync(f)).flatMap(f => JSON.parse(fs.readFileSync(f)));
    fs.writeFileSync(out, JSON.stringify(all.filter(r => !prefixes.some(p => r.name.startsWith(p)))));
  ' "$out" "$drop" "$@"
}

status=0
run_check() {  # run_check SEED REQUESTS SPECS USER [SERVE ARGS...]: USER's token on every request
  local seed=$1 file=$2 specs=$3 user=$4; shift 4
  local token_args=()
  if [ -n "$user" ]; then
    local token
    token=$("$BIN" token --user "$user" --seed "$seed") || { echo "no token for $user"; status=1; return; }
    token_args=(--token "$token")
  fi
  echo "== $(basename "$seed") $* against $specs"
  start_daemon "$BIN" --seed "$seed" "$@"
  "$TOOL" --base "http://127.0.0.1:$DAEMON_PORT" --requests "$file" --unknown-props fail --all-ops \
    --specs "$specs" ${token_args[@]+"${token_args[@]}"} || status=1
  stop_daemon
  [ "$DAEMON_EXIT" = 0 ] || { echo "daemon exited $DAEMON_EXIT"; status=1; }
}
R="$SRC/tests/openapi"
# The original line (Canton 3.5, Splice 0.6.12): the 13 operations and the routes of both lines.
requests "$WORK/0.6.json" "by-hash-" "$R/default-network.json" "$R/ledger-read.json" "$R/scan-both.json" \
  "$R/validator.json" "$R/ledger-commands.json" "$R/ledger-external-parties.json"
# Canton 3.6 and Splice 0.9: op 1, the other 3.4 deprecations (flats, transaction-by-id) and the
# filter/verbose request fields are disabled and op 3's v0/v1 holdings/state are gone (their answers
# there, a 400 JsCantonError the 3.6 yaml does not declare and an unknown path, are unit tested);
# the rest, and the routes only this line has.
requests "$WORK/0.9.json" "op1-,op3-,deprecated34-,updates-legacy-filter,acs-legacy-filter" "$R/default-network.json" "$R/ledger-read.json" \
  "$R/scan-both.json" "$R/scan-0.9.json" "$R/validator.json" "$R/ledger-commands.json" \
  "$R/ledger-external-parties.json"
# alice is a wallet user of the default network: the validator and ledger requests run with her
# token unless they set their own Authorization header (or remove it with null).
run_check "$SRC/config/default-network.json" "$WORK/0.6.json" "$SHARED/specs" alice
run_check "$SRC/config/default-network.json" "$WORK/0.9.json" "$SHARED/specs/splice-0.9" alice \
  --release splice-0.9
# The user and party management of the participant's admin user (ParticipantAdmin): the reads,
# a party's allocation and a user's creation, rights, update and deletion.
run_check "$SRC/config/default-network.json" "$R/ledger-admin.json" "$SHARED/specs" ledger-api-user
run_check "$SRC/config/default-network.json" "$R/ledger-admin.json" "$SHARED/specs/splice-0.9" \
  ledger-api-user --release splice-0.9
run_check "$SRC/tests/data/seed-no-lsu.json" "$R/no-lsu.json" "$SHARED/specs" ""
run_check "$SRC/tests/data/seed-no-lsu.json" "$R/no-lsu.json" "$SHARED/specs/splice-0.9" "" \
  --release splice-0.9
exit $status
