#!/usr/bin/env bash
# package.check: `make package`'s Debian package (CPack, CMakeLists.txt) holds the binary, the
# shipped networks, a systemd unit that nothing enables and the README; unpacked in a clean folder
# (dpkg -x: installing would change this machine), its cantonlite serves from / on the networks
# compiled into it.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1; SRC=$2
. "$SRC/tests/integration/daemon_lib.sh"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"; [ -n "${DAEMON_PID:-}" ] && kill "$DAEMON_PID" 2>/dev/null || true' EXIT
fail() { echo "FAIL package.check: $*"; exit 1; }

cpack --config "$BUILD/CPackConfig.cmake" -B "$TMP/out" >"$TMP/cpack.log" 2>&1 || { cat "$TMP/cpack.log"; fail "cpack"; }
version=$(sed -n 's/^project(cantonlite VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
deb="$TMP/out/cantonlite_${version}_amd64.deb"
[ -f "$deb" ] || { ls "$TMP/out"; fail "no cantonlite_${version}_amd64.deb"; }

contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/cantonlite ./usr/share/cantonlite/cantonlite.json \
         ./usr/share/cantonlite/default-network.json ./usr/share/cantonlite/localnet-network.json \
         ./usr/lib/systemd/system/cantonlite.service ./usr/share/doc/cantonlite/README.md; do
  grep -qx -- "$f" <<<"$contents" || fail "the package has no $f: $contents"
done
grep -q '^/\|\.\./' <<<"$contents" && fail "a path outside the package's root: $contents"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libspdlog1.10 libssl3 libsimdjson14 libprotobuf-lite32 libpq5 libzstd1 libjemalloc2 libisal2; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
# Nothing enables the unit: no maintainer scripts.
dpkg-deb -e "$deb" "$TMP/control"
for script in postinst preinst prerm postrm; do
  [ -e "$TMP/control/$script" ] && fail "the package runs a $script script"
done
# Every library the binary needs is one Depends names, or one every Debian system has.
dpkg-deb -x "$deb" "$TMP/root"
bin="$TMP/root/usr/bin/cantonlite"
missing=$(ldd "$bin" | grep 'not found' || true)
[ -z "$missing" ] || fail "libraries not found: $missing"

# Served from /, on the built-in config and networks (nothing beside the binary says where).
cd /
"$bin" --version | grep -qx "cantonlite $version" || fail "--version: $("$bin" --version)"
"$bin" describe >"$TMP/describe" || fail "describe"
grep -q '^  source  *built-in default network$' "$TMP/describe" || fail "describe: $(head -3 "$TMP/describe")"
start_daemon "$bin" || fail "serve from /"
curl -fsS -o /dev/null "http://127.0.0.1:$DAEMON_PORT/api/scan/livez" || fail "livez"
curl -fsS "http://127.0.0.1:$DAEMON_PORT/api/scan/v0/dso-party-id" | grep -q dso_party_id || fail "dso-party-id"
stop_daemon
[ "$DAEMON_EXIT" = 0 ] || fail "serve exited $DAEMON_EXIT"
echo "package.check: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB): its cantonlite serves from / on the built-in network"
