#!/bin/sh
# Starts cantonlite on a free port with the LocalNet-shaped seed, runs a flow against it
# (read_flow.mjs, or SDK_FLOW=write_flow.mjs), stops it. Arguments go to the flow (--trace,
# --only utxos,..., --verbose).
#   tests/sdk/run.sh                     # npm ci first if node_modules is missing
# CANTONLITE_BIN (default build/cantonlite) and SDK_TEST_SEED (default config/localnet-network.json)
# pick another binary or seed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CANTONLITE_BIN:-$root/build/cantonlite}
seed=${SDK_TEST_SEED:-$root/config/localnet-network.json}
if [ ! -d "$here/node_modules/@canton-network/wallet-sdk" ]; then
    (cd "$here" && npm ci --no-audit --no-fund)
fi
log=$(mktemp)
"$bin" serve --port 0 --seed "$seed" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
trap 'exit 130' INT TERM
port=
for _ in $(seq 100); do
    port=$(sed -n 's/.*serving on [0-9.]*:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "run.sh: cantonlite did not start:" >&2
    cat "$log" >&2
    exit 1
fi
status=0
node "$here/${SDK_FLOW:-read_flow.mjs}" --url "http://127.0.0.1:$port" "$@" || status=$?
exit "$status"
