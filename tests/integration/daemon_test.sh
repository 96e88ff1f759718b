#!/usr/bin/env bash
# The cantonlite executable as a user runs it: flags, config errors, env overrides, signals.
# Usage: daemon_test.sh BIN SOURCE_DIR
set -euo pipefail
BIN=$1; SRC=$2
. "$SRC/tests/integration/daemon_lib.sh"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"; [ -n "${DAEMON_PID:-}" ] && kill "$DAEMON_PID" 2>/dev/null || true' EXIT
passed=0; failed=0
check() {  # check NAME COMMAND...: runs the command, counts and prints the result
  local name=$1; shift
  if "$@"; then echo "PASS $name"; passed=$((passed+1)); else echo "FAIL $name"; failed=$((failed+1)); fi
}
# expect_usage_error NAME NEEDLE [ENV=VAL...] -- ARGS...: exit 2, exactly one line on stderr containing NEEDLE.
expect_usage_error() {
  local needle=$1; shift; local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  set +e; env "${envs[@]}" "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"; local code=$?; set -e
  [ "$code" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -qF -- "$needle" "$TMP/err" \
    || { echo "  exit $code, stderr: $(cat "$TMP/err")"; return 1; }
}

check "version" bash -c "'$BIN' --version | grep -qx 'cantonlite [0-9.]*'"
check "help" bash -c "'$BIN' --help | grep -q 'cantonlite serve'"
check "unknown command" expect_usage_error "frobnicate: unknown command" -- frobnicate
check "unknown flag" expect_usage_error "--prot: unknown flag" -- serve --prot 1
check "bad port flag" expect_usage_error "--port: must be an integer from 0 to 65535" -- serve --port abc
check "bad port variable" expect_usage_error "CANTONLITE_PORT: must be an integer" CANTONLITE_PORT=70000 -- serve
check "bad log format variable" expect_usage_error 'CANTONLITE_LOG_FORMAT: must be "text" or "json"' CANTONLITE_LOG_FORMAT=xml -- serve

echo '{"server": {"port": "x"}, "seed": "s.json"}' >"$TMP/bad-port.json"
check "bad config value names file and pointer" expect_usage_error "$TMP/bad-port.json: /server/port: must be an integer" -- serve --config "$TMP/bad-port.json"
echo '{"server": {"prot": 1}, "seed": "s.json"}' >"$TMP/typo.json"
check "unknown config key" expect_usage_error "$TMP/typo.json: /server/prot: unknown key" -- serve --config "$TMP/typo.json"
echo '{"server": ' >"$TMP/broken.json"
check "invalid JSON config" expect_usage_error "$TMP/broken.json: is not valid JSON" -- serve --config "$TMP/broken.json"
check "missing config" expect_usage_error "$TMP/none.json: cannot be read" -- serve --config "$TMP/none.json"
echo '{"network": {"dso_party": 7}}' >"$TMP/bad-seed.json"
check "bad seed names file and pointer" expect_usage_error "$TMP/bad-seed.json: /network/dso_party: must be a non-empty string" -- serve --seed "$TMP/bad-seed.json"

# A real start on the shipped config: answers, then stops cleanly on SIGTERM and on SIGINT.
serves_and_stops() {
  local signal=$1
  start_daemon "$BIN" || return 1
  curl -fsS "http://127.0.0.1:$DAEMON_PORT/api/scan/livez" >/dev/null || return 1
  stop_daemon "$signal"
  [ "$DAEMON_EXIT" = 0 ] || { echo "  exit $DAEMON_EXIT"; return 1; }
}
check "SIGTERM stops with exit 0" serves_and_stops TERM
check "SIGINT stops with exit 0" serves_and_stops INT

# A script stops the daemon as soon as it first answers, on a fixed port, without waiting for its
# start-up line; started as a background job, the daemon begins with SIGINT ignored. The signal is
# handled before the first answer can be given, so it stops every time (a SIGINT that came between
# the two was lost, and the daemon served on).
stops_at_its_first_answer() {
  local port log pid
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  log=$(mktemp)
  for _ in 1 2 3 4 5; do
    "$BIN" serve --port "$port" >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 1 2000); do
      curl -fsS -o /dev/null "http://127.0.0.1:$port/api/scan/livez" 2>/dev/null && break
      sleep 0.005
    done
    kill -INT "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "  still serving 10 s after SIGINT"; kill -KILL "$pid"; wait "$pid"; rm -f "$log"; return 1
    fi
    wait "$pid" || { echo "  exit $?"; cat "$log"; rm -f "$log"; return 1; }
  done
  rm -f "$log"
}
check "SIGINT at the first answer stops it" stops_at_its_first_answer

json_logs() {
  start_daemon "$BIN" --log-format json || return 1
  curl -fsS "http://127.0.0.1:$DAEMON_PORT/api/scan/v0/dso-party-id" >/dev/null
  stop_daemon
  grep -q '^{"time":"[^"]*Z","level":"info","logger":"access","method":"GET","target":"/api/scan/v0/dso-party-id","status":200,"bytes":[0-9]*,"micros":[0-9]*,' "$DAEMON_LOG" \
    || { cat "$DAEMON_LOG"; return 1; }
}
check "JSON lines access log" json_logs

# --progress shows how far the loads came, here in one last line each (they take under a second).
progress_lines() {
  start_daemon "$BIN" --progress --journal "$TMP/progress.journal" || return 1
  stop_daemon
  grep -q '^cantonlite: loading seed .*default-network.json: 100% ([0-9.]* MiB in [0-9.]* s' "$DAEMON_LOG" \
    && grep -q '^cantonlite: replaying journal .*progress.journal: 100% (0 records in ' "$DAEMON_LOG" \
    || { cat "$DAEMON_LOG"; return 1; }
}
check "--progress" progress_lines

port_in_use() {
  start_daemon "$BIN" || return 1
  set +e; "$BIN" serve --port "$DAEMON_PORT" >"$TMP/out" 2>"$TMP/err"; local code=$?; set -e
  stop_daemon
  [ "$code" = 1 ] && grep -q "cannot listen on" "$TMP/err" || { echo "  exit $code: $(cat "$TMP/err")"; return 1; }
}
check "port in use exits 1" port_in_use

# Anywhere: a copy of the binary with no config/ beside it, run from a folder with none, serves the
# config and networks compiled into it; a file given still wins.
mkdir -p "$TMP/anywhere/bin" "$TMP/empty"
cp "$BIN" "$TMP/anywhere/bin/cantonlite"
ANYWHERE="$TMP/anywhere/bin/cantonlite"
runs_anywhere() {
  (cd "$TMP/empty" && "$ANYWHERE" describe) >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; return 1; }
  grep -q '^  source  *built-in default network$' "$TMP/out" || { head -5 "$TMP/out"; return 1; }
  # (Each answer to a file first: grep -q leaves a pipe early, which pipefail would count.)
  (cd "$TMP/empty" && "$ANYWHERE" describe --localnet --json) >"$TMP/out" || return 1
  grep -q '"source": "built-in LocalNet network"' "$TMP/out" || return 1
  (cd "$TMP/empty" && "$ANYWHERE" describe --seed "$TMP/gen.json") >"$TMP/out" || return 1
  grep -q "^  source  *seed $TMP/gen.json$" "$TMP/out" || return 1
  (cd "$TMP/empty" && "$ANYWHERE" token --user ledger-api-user) >"$TMP/out" || return 1
  grep -Eqx '[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+' "$TMP/out" || return 1
  local here=$PWD
  cd / && start_daemon "$ANYWHERE" || { cd "$here"; return 1; }
  cd "$here"
  local ok=0
  curl -fsS "http://127.0.0.1:$DAEMON_PORT/api/scan/v0/dso-party-id" | grep -q dso_party_id || ok=1
  stop_daemon
  [ "$ok" = 0 ] && [ "$DAEMON_EXIT" = 0 ]
}

# describe, token and generate on a small generated network.
"$BIN" generate --parties 4 --amulets 20 --updates 60 --seed 5 >"$TMP/gen.json"
check "runs anywhere on its built-in config and networks" runs_anywhere
check "generate is deterministic" bash -c "'$BIN' generate --parties 4 --amulets 20 --updates 60 --seed 5 | cmp -s - '$TMP/gen.json'"
check "generate with another seed differs" bash -c "! '$BIN' generate --parties 4 --amulets 20 --updates 60 --seed 6 | cmp -s - '$TMP/gen.json'"
check "generate needs its sizes" expect_usage_error "--parties: is required" -- generate --amulets 1 --updates 1
check "token prints three base64url parts" bash -c "'$BIN' token --user party-0 --seed '$TMP/gen.json' | grep -Eqx '[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+'"
check "token for an unknown user" expect_usage_error "--user: unknown user 'nobody' (users: party-0, party-1, party-2, party-3)" -- token --user nobody --seed "$TMP/gen.json"
echo '{"network": {"dso_party": "DSO::1220d5"}, "users": [{"id": "a", "party": "a::1220a1"}],
       "auth": {"rs256": {"public_keys": [{"pem": "not checked at load"}]}}}' >"$TMP/rs256-only.json"
check "token without an HS256 secret" expect_usage_error "no HS256 secret" -- token --user a --seed "$TMP/rs256-only.json"
describe_json_parses() {
  "$BIN" describe --seed "$TMP/gen.json" --json >"$TMP/describe.json" || return 1
  local script='const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const ops = new Set(d.examples.map(e => e.op));
    const ok = typeof d.dso_party === "string" && Number.isInteger(d.ledger_end) && d.users.length === 4
      && [...Array(13).keys()].every(i => ops.has(i + 1))
      && d.examples.every(e => e.path.startsWith("/") && Number.isInteger(e.expect_status));
    process.exit(ok ? 0 : 1);'
  if command -v node >/dev/null; then node -e "$script" "$TMP/describe.json"
  elif command -v python3 >/dev/null; then python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if {e["op"] for e in d["examples"]} == set(range(1, 14)) else 1)' "$TMP/describe.json"
  else echo "  (neither node nor python3: only checked that describe succeeds)"; fi
}
check "describe --json parses and covers ops 1-13" describe_json_parses
generated_seed_serves() {
  start_daemon "$BIN" --seed "$TMP/gen.json" || return 1
  local dso; dso=$(curl -fsS "http://127.0.0.1:$DAEMON_PORT/api/scan/v0/dso-party-id")
  # The curl line describe prints for op 12, run against this daemon (port from CANTONLITE_PORT).
  local line; line=$(CANTONLITE_PORT=$DAEMON_PORT "$BIN" describe --seed "$TMP/gen.json" | grep -A1 '^# op 12,' | tail -n 1)
  local answer; answer=$(bash -c "$line")
  stop_daemon
  grep -qF "$(sed -n 's/.*"dso_party": *"\([^"]*\)".*/\1/p' "$TMP/describe.json")" <<<"$dso" \
    && [ "$(tail -n 1 <<<"$answer")" = 200 ] && grep -qF "$dso" <<<"$answer" \
    || { echo "  dso-party-id: $dso; describe's curl line: $line -> $answer"; return 1; }
}
check "a generated seed serves and describe's curl lines reach it" generated_seed_serves

# The admin API as a user drives it, through the client commands.
admin_client_drives_the_network() {
  start_daemon "$BIN" || return 1
  local url="http://127.0.0.1:$DAEMON_PORT" id end
  echo '[{"step": "add_user", "id": "zoe", "wallet": true}, {"step": "mint", "owner": "zoe", "amount": "5", "as": "z"}]' >"$TMP/steps.json"
  "$BIN" apply --url "$url" "$TMP/steps.json" | grep -q '"z"' || return 1
  id=$("$BIN" snapshot --url "$url") || return 1
  echo '{"step": "mint", "owner": "zoe", "amount": "1"}' | "$BIN" apply --url "$url" - >/dev/null || return 1
  "$BIN" time --url "$url" --advance PT1H | grep -q '"now": "2025-01-20T01:00:03Z"' || return 1
  end=$("$BIN" revert --url "$url" "$id" | sed -n 's/.*"ledger_end": \([0-9]*\).*/\1/p')
  [ "$end" = 49 ] || { echo "  ledger end after revert: $end"; return 1; }
  set +e; "$BIN" revert --url "$url" 99 2>"$TMP/err"; local code=$?; set -e
  [ "$code" = 1 ] && grep -q "cantonlite: 404: no snapshot '99'" "$TMP/err" || { echo "  exit $code: $(cat "$TMP/err")"; return 1; }
  "$BIN" reset --url "$url" | grep -q '"ledger_end": 47' || return 1
  stop_daemon
}
check "the client commands drive the network" admin_client_drives_the_network

# Off loopback the admin API needs admin.token: without one, 403 and a start-up warning saying why.
admin_closed_off_loopback() {
  start_daemon "$BIN" --address 0.0.0.0 || return 1
  local status; status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$DAEMON_PORT/_cantonlite/v1/time")
  stop_daemon
  [ "$status" = 403 ] && grep -q "answers 403: 0.0.0.0 is not a loopback address and admin.token" "$DAEMON_LOG" \
    || { echo "  status $status"; cat "$DAEMON_LOG"; return 1; }
}
check "off loopback the admin API is closed without admin.token" admin_closed_off_loopback
admin_token_opens_it() {
  start_daemon "$BIN" --address 0.0.0.0 --admin-token s3cret || return 1
  local url="http://127.0.0.1:$DAEMON_PORT" without with
  without=$(curl -s -o /dev/null -w '%{http_code}' "$url/_cantonlite/v1/time")
  with=$(CANTONLITE_ADMIN_TOKEN=s3cret "$BIN" time --url "$url" | grep -c '"now"')
  stop_daemon
  [ "$without" = 403 ] && [ "$with" = 1 ] || { echo "  without $without, with $with"; return 1; }
}
check "admin.token opens the admin API off loopback" admin_token_opens_it

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
