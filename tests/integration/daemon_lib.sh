# Helpers for the tests that run the cantonlite executable as a process. Source it.

# start_daemon BIN [ARGS...]: starts `BIN serve --port 0 ARGS...`, sets DAEMON_PID and DAEMON_PORT
# (read from its start-up line). Returns 1 when it does not come up within 10 s.
start_daemon() {
  local bin=$1; shift
  DAEMON_LOG=$(mktemp)
  "$bin" serve --port 0 "$@" >"$DAEMON_LOG" 2>&1 &
  DAEMON_PID=$!
  for _ in $(seq 1 100); do
    DAEMON_PORT=$(sed -n 's/.*serving on [^ ]*:\([0-9][0-9]*\) .*/\1/p' "$DAEMON_LOG" | head -n 1)
    [ -n "$DAEMON_PORT" ] && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "daemon did not start:"; cat "$DAEMON_LOG"
  return 1
}

# stop_daemon [SIGNAL]: sends the signal (TERM by default) and sets DAEMON_EXIT to the exit code.
stop_daemon() {
  kill -"${1:-TERM}" "$DAEMON_PID"
  set +e; wait "$DAEMON_PID"; DAEMON_EXIT=$?; set -e
}
