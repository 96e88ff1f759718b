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

json_logs() {
  start_daemon "$BIN" --log-format json || return 1
  curl -fsS "http://127.0.0.1:$DAEMON_PORT/api/scan/v0/dso-party-id" >/dev/null
  stop_daemon
  grep -q '^{"time":"[^"]*Z","level":"info","logger":"access","method":"GET","target":"/api/scan/v0/dso-party-id","status":200,"bytes":[0-9]*,"micros":[0-9]*,' "$DAEMON_LOG" \
    || { cat "$DAEMON_LOG"; return 1; }
}
check "JSON lines access log" json_logs

port_in_use() {
  start_daemon "$BIN" || return 1
  set +e; "$BIN" serve --port "$DAEMON_PORT" >"$TMP/out" 2>"$TMP/err"; local code=$?; set -e
  stop_daemon
  [ "$code" = 1 ] && grep -q "cannot listen on" "$TMP/err" || { echo "  exit $code: $(cat "$TMP/err")"; return 1; }
}
check "port in use exits 1" port_in_use

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
