#!/bin/sh
# sdk.check and sdk.write_check: the official wallet SDK's read flow (read_flow.mjs), or FLOW,
# against the daemon, through run.sh.
# Skipped (exit 77), the reason printed, without Node.js 20+ and npm, or when `npm ci` cannot
# install the pinned SDK (no registry). STEPS: the steps to run, comma-separated; those cantonlite
# does not serve yet are left out (docs/wallet-sdk.md).
# Usage: check.sh BIN SOURCE_DIR STEPS [FLOW]
set -eu
bin=$1 src=$2 steps=$3 flow=${4:-read_flow.mjs}
here=$src/tests/sdk
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "SKIPPED: the wallet SDK check needs Node.js 20+ and npm (found: none)"; exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
    echo "SKIPPED: the wallet SDK check needs Node.js 20+ (found: $(node --version))"; exit 77
fi
if [ ! -d "$here/node_modules/@canton-network/wallet-sdk" ]; then
    log=$(mktemp)
    if ! (cd "$here" && npm ci --no-audit --no-fund >"$log" 2>&1); then
        echo "SKIPPED: npm ci could not install the pinned wallet SDK:"; tail -n 5 "$log"; rm -f "$log"
        exit 77
    fi
    rm -f "$log"
fi
CANTONLITE_BIN=$bin SDK_FLOW=$flow exec "$here/run.sh" --only "$steps"
