#!/usr/bin/env bash
# Acknowledged writes survive SIGKILL: a daemon with --journal takes batches of writes from a
# client and is killed at a random moment, again and again; after every restart on the same
# journal each write it answered 200 still holds the same offsets and update ids, no batch is half
# applied, and the log shows the replay. Then: a journal of another seed is refused, and a torn
# tail is cut with a warning naming its byte offset.
# Usage: journal_crash_test.sh BIN SOURCE_DIR [ROUNDS]
set -euo pipefail
BIN=$1; SRC=$2; ROUNDS=${3:-20}
. "$SRC/tests/integration/daemon_lib.sh"
command -v curl >/dev/null || { echo "journal.crash: curl is needed (scripts/install-deps.sh installs it)"; exit 1; }

SEED=$SRC/config/default-network.json
OTHER_SEED=$SRC/config/default-network-no-lsu.json
TMP=$(mktemp -d)
JOURNAL=$TMP/journal
ACKS=$TMP/acks              # one line per acknowledged write: OFFSET UPDATE_ID x 3
CLIENT_PID=
cleanup() {
  if [ -n "$CLIENT_PID" ]; then kill "$CLIENT_PID" 2>/dev/null || true; fi
  if [ -n "${DAEMON_PID:-}" ]; then kill -9 "$DAEMON_PID" 2>/dev/null || true; fi
  if [ -n "${DAEMON_LOG:-}" ]; then rm -f "$DAEMON_LOG"; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
fail() {  # fail MESSAGE: prints it (and the daemon's log) and stops the test
  echo "FAIL journal.crash: $*"
  if [ -n "${DAEMON_LOG:-}" ] && [ -f "$DAEMON_LOG" ]; then echo "--- daemon log:"; tail -n 30 "$DAEMON_LOG"; fi
  exit 1
}

ALICE_TOKEN=$("$BIN" token --user alice --seed "$SEED")
ALICE_PARTY=$("$BIN" describe --seed "$SEED" --json | tr -d ' \n' \
  | sed -n 's/.*{"id":"alice","party":"\([^"]*\)".*/\1/p')
SEED_END=$("$BIN" describe --seed "$SEED" --json | sed -n 's/^  "ledger_end": *\([0-9][0-9]*\).*/\1/p')
[ -n "$ALICE_PARTY" ] && [ -n "$SEED_END" ] || fail "cannot read alice's party or the ledger end from describe --json"

ledger_end() {  # prints the running daemon's ledger end
  curl -sS --max-time 5 "http://127.0.0.1:$DAEMON_PORT/_cantonlite/v1/time" \
    | sed -n 's/.*"ledger_end": *\([0-9][0-9]*\).*/\1/p'
}

# start_journal_daemon: starts the daemon on the journal and waits until it answers (10 s).
start_journal_daemon() {
  if [ -n "${DAEMON_LOG:-}" ]; then rm -f "$DAEMON_LOG"; fi
  start_daemon "$BIN" --seed "$SEED" --journal "$JOURNAL" || fail "the daemon did not start"
  for _ in $(seq 1 50); do
    curl -fsS --max-time 2 "http://127.0.0.1:$DAEMON_PORT/_cantonlite/v1/time" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  fail "the daemon does not answer on port $DAEMON_PORT"
}

# client PORT ROUND: sends batches of 3 mints until a request fails (the daemon was killed);
# appends a line to $ACKS for every 200, once its whole answer is in. Anything else than a 200 or a
# failed connection goes to $TMP/client-errors.
client() {
  local port=$1 round=$2 i=0 a body answer code updates line
  while :; do
    i=$((i + 1))
    printf -v a '%s%04d' "$round" "$i"  # distinct amounts: a.1, a.2, a.3
    body="[{\"step\":\"mint\",\"owner\":\"alice\",\"amount\":\"$a.1\"},"
    body+="{\"step\":\"mint\",\"owner\":\"alice\",\"amount\":\"$a.2\"},"
    body+="{\"step\":\"mint\",\"owner\":\"alice\",\"amount\":\"$a.3\"}]"
    answer=$(curl -sS --max-time 10 -w '\n%{http_code}' -X POST -H 'Content-Type: application/json' \
      -d "$body" "http://127.0.0.1:$port/_cantonlite/v1/steps" 2>/dev/null) || return 0
    code=${answer##*$'\n'}
    if [ "$code" != 200 ]; then
      echo "round $round write $i: HTTP $code: ${answer%$'\n'*}" >>"$TMP/client-errors"; return 0
    fi
    # Each update object, whatever the order of its keys: its offset and update id.
    updates=$(grep -oE '\{[^{}]*"update_id"[^{}]*\}' <<<"$answer" | sed -E \
      's/.*"offset": *([0-9]+).*/\1 &/; s/^([0-9]+) .*"update_id": *"([0-9a-f]+)".*/\1 \2/' || true)
    line=$(tr '\n' ' ' <<<"$updates")
    if ! grep -Eqx '([0-9]+ [0-9a-f]+ ){3}' <<<"$line"; then
      echo "round $round write $i: 200 without 3 updates: ${answer%$'\n'*}" >>"$TMP/client-errors"; return 0
    fi
    printf '%s\n' "${line% }" >>"$ACKS"
  done
}

# verify_acks: every acknowledged write's offsets hold the same update ids (op 1 as alice; one
# curl for all requests, over one connection).
verify_acks() {
  [ -s "$ACKS" ] || return 0
  local cfg=$TMP/op1.curl expected=$TMP/expected
  : >"$cfg"; : >"$expected"
  local o1 u1 o2 u2 o3 u3 off
  while read -r o1 u1 o2 u2 o3 u3; do
    printf '%s %s\n%s %s\n%s %s\n' "$o1" "$u1" "$o2" "$u2" "$o3" "$u3" >>"$expected"
    for off in "$o1" "$o2" "$o3"; do
      printf '%s\n' \
        "url = \"http://127.0.0.1:$DAEMON_PORT/v2/updates/transaction-by-offset\"" \
        "header = \"Authorization: Bearer $ALICE_TOKEN\"" \
        'header = "Content-Type: application/json"' \
        "data = \"{\\\"offset\\\":$off,\\\"transactionFormat\\\":{\\\"eventFormat\\\":{\\\"filtersByParty\\\":{\\\"$ALICE_PARTY\\\":{}},\\\"verbose\\\":false},\\\"transactionShape\\\":\\\"TRANSACTION_SHAPE_ACS_DELTA\\\"}}\"" \
        'write-out = "\n@@status %{http_code}\n"' \
        'silent' 'show-error' 'max-time = 10' 'next' >>"$cfg"
    done
  done <"$ACKS"
  sed -i '$d' "$cfg"  # no `next` after the last request
  curl -K "$cfg" >"$TMP/op1.out" 2>"$TMP/op1.err" || fail "op 1 requests failed: $(head -c 300 "$TMP/op1.err")"
  # One line per answer: STATUS UPDATE_ID (the first updateId of the answer: the transaction's).
  awk '/^@@status / { print $2, (id == "" ? "-" : id); id = ""; next }
       id == "" && match($0, /"updateId": *"[0-9a-f]*"/) {
         id = substr($0, RSTART, RLENGTH); sub(/.*"updateId": *"/, "", id); sub(/"$/, "", id) }' \
    "$TMP/op1.out" >"$TMP/got"
  local bad
  bad=$(paste -d ' ' "$expected" "$TMP/got" | awk '$3 != 200 || $2 != $4' | head -n 5)
  [ -z "$bad" ] && [ "$(wc -l <"$expected")" = "$(wc -l <"$TMP/got")" ] \
    || fail "acknowledged writes lost or changed (expected: offset update_id; got: status update_id):"$'\n'"$bad"
}

# check_recovered ROUND: after a restart: all acknowledged writes present, no half batch, the log
# shows the replay; counts torn-record warnings.
TORN=0
check_recovered() {
  local end replayed acked
  end=$(ledger_end || true)
  [ -n "$end" ] || fail "round $1: no ledger_end from /_cantonlite/v1/time"
  [ $(((end - SEED_END) % 3)) = 0 ] || fail "round $1: a half-applied batch: ledger end $end, seed's $SEED_END"
  replayed=$(sed -n 's/.*journal .*: \([0-9][0-9]*\) writes replayed.*/\1/p' "$DAEMON_LOG" | head -n 1)
  [ -n "$replayed" ] || fail "round $1: the log does not show the replay"
  [ "$((SEED_END + 3 * replayed))" = "$end" ] \
    || fail "round $1: $replayed writes replayed, but the ledger end is $end (seed's $SEED_END)"
  acked=$(wc -l <"$ACKS")
  [ "$replayed" -ge "$acked" ] || fail "round $1: $replayed writes replayed, $acked acknowledged"
  TORN=$((TORN + $(grep -c 'cut a torn record at byte [0-9]' "$DAEMON_LOG" || true)))
  verify_acks
}

: >"$ACKS"
INJECTED=0
start_journal_daemon
[ "$(ledger_end)" = "$SEED_END" ] || fail "a new journal does not start at the seed's ledger end $SEED_END"
for round in $(seq 1 "$ROUNDS"); do
  client "$DAEMON_PORT" "$round" &
  CLIENT_PID=$!
  # The random delay starts at the round's first acknowledged write (10 s at most).
  before=$(wc -l <"$ACKS")
  for _ in $(seq 1 500); do [ "$(wc -l <"$ACKS")" -gt "$before" ] && break; sleep 0.02; done
  [ "$(wc -l <"$ACKS")" -gt "$before" ] || fail "round $round: no write acknowledged within 10 s: $(cat "$TMP/client-errors" 2>/dev/null)"
  ms=$((50 + RANDOM % 351))
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill -0 "$DAEMON_PID" 2>/dev/null || fail "round $round: the daemon died before the kill"
  kill -KILL "$DAEMON_PID"
  set +e; wait "$DAEMON_PID" 2>/dev/null; DAEMON_EXIT=$?; set -e  # (quiet: no "Killed" line)
  DAEMON_PID=
  [ "$DAEMON_EXIT" = 137 ] || fail "round $round: the daemon exited $DAEMON_EXIT before the kill"
  # The client stops at its first failed request (at most its curl's 10 s).
  for _ in $(seq 1 150); do kill -0 "$CLIENT_PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$CLIENT_PID" 2>/dev/null && fail "round $round: the client did not stop after the kill"
  wait "$CLIENT_PID" || true
  CLIENT_PID=
  [ -s "$TMP/client-errors" ] && fail "round $round: $(cat "$TMP/client-errors")"
  # A SIGKILL does not tear a write(2), so every 4th round tears the tail as a power cut would:
  # the first bytes of a record that was never acknowledged (a prefix of the last one).
  cut_at=
  if [ $((round % 4)) = 0 ]; then
    size=$(stat -c %s "$JOURNAL"); last=$(tail -n 1 "$JOURNAL")
    [ "$(tail -c 1 "$JOURNAL" | od -An -c | tr -d ' ')" = '\n' ] && cut_at=$size
    printf '%s' "${last:0:$((1 + RANDOM % ${#last}))}" >>"$JOURNAL"
    INJECTED=$((INJECTED + 1))
  fi
  start_journal_daemon
  if [ -n "$cut_at" ]; then
    grep -q "cut a torn record at byte $cut_at " "$DAEMON_LOG" || fail "round $round: the torn tail at byte $cut_at was not cut with a warning"
  fi
  check_recovered "$round"
done
ACKED=$(wc -l <"$ACKS")
END=$(ledger_end || true)
[ -n "$END" ] || fail "no ledger_end from /_cantonlite/v1/time"
stop_daemon TERM
DAEMON_PID=
[ "$DAEMON_EXIT" = 0 ] || fail "SIGTERM: exit $DAEMON_EXIT"

# A journal written for another seed: one line (on stderr, nothing else), exit 2, the journal untouched.
cp "$JOURNAL" "$TMP/journal.before"
set +e
timeout 20 "$BIN" serve --port 0 --seed "$OTHER_SEED" --journal "$JOURNAL" >"$TMP/out" 2>"$TMP/err"
code=$?
set -e
[ "$code" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && [ ! -s "$TMP/out" ] && grep -qF "written for another seed" "$TMP/err" \
  || fail "another seed: exit $code, stdout: $(cat "$TMP/out"), stderr: $(cat "$TMP/err")"
cmp -s "$JOURNAL" "$TMP/journal.before" || fail "another seed: the refused journal was changed"

# A torn tail is cut with a warning naming its byte offset, and the daemon starts with every write.
torn_tail() {  # torn_tail WHAT: the journal's tail was just torn at byte $SIZE
  start_journal_daemon
  grep -q "cut a torn record at byte $SIZE " "$DAEMON_LOG" || fail "$1: no warning naming byte $SIZE"
  [ "$(ledger_end)" = "$END" ] || fail "$1: ledger end $(ledger_end), before $END"
  verify_acks
  stop_daemon TERM
  DAEMON_PID=
  [ "$(stat -c %s "$JOURNAL")" = "$SIZE" ] || fail "$1: the journal was not cut back to $SIZE bytes"
}
SIZE=$(stat -c %s "$JOURNAL")
printf '1234abcd 99 {"op":' >>"$JOURNAL"
torn_tail "a torn made-up tail"
# Half of a real record (the last one, appended again, cut in the middle).
last=$(tail -n 1 "$JOURNAL")
printf '%s' "${last:0:$((${#last} / 2))}" >>"$JOURNAL"
torn_tail "half of a real record"

echo "journal.crash: $ROUNDS kills, $ACKED acknowledged writes, all present; $TORN torn records cut ($INJECTED" \
  "of them torn on purpose; plus 2 made-up torn tails; another seed's journal refused; ${SECONDS}s)"
