#!/usr/bin/env bash
# Runs each argument as a bash command, JOBS at a time (default: the cores), each one's output kept
# apart. Once all have ended, prints each one's output in the order given, or, for one that failed,
# the command and its last 60 lines; exits 1 if any failed.
#   scripts/parallel.sh 'cmd one' 'cmd two' ...
# `make fuzz` runs its targets with it, and `make asan` the shards of its suites.
set -uo pipefail
jobs=${JOBS:-$(nproc)}
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
commands=("$@")
n=0
for command in "${commands[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  (bash -c "$command" >"$dir/$n.out" 2>&1; echo $? >"$dir/$n.rc") &
  n=$((n + 1))
done
wait
failed=0
for ((k = 0; k < n; k++)); do
  rc=$(cat "$dir/$k.rc" 2>/dev/null || echo 1)
  if [ "$rc" -eq 0 ]; then
    cat "$dir/$k.out"
  else
    echo "== FAILED (exit $rc): ${commands[k]}"
    tail -n 60 "$dir/$k.out"
    failed=1
  fi
done
exit $failed
