#!/usr/bin/env bash
# Build docker/Dockerfile with rootful podman (no Docker daemon needed) and smoke-test the image:
# the server answers on a free loopback port, runs as a non-root user and stops cleanly on SIGTERM;
# `serve --localnet` answers on LocalNet's ports with its LocalNet-shaped network.
#
# The base image is made locally from the apt-configured Debian mirror (no registry access needed).
# podman storage and config live under $CANTONLITE_CONTAINER_STATE (default
# /var/tmp/cantonlite-containers), so reruns on the same machine reuse the base image and layer cache.
# Full cleanup:
#   CONTAINERS_STORAGE_CONF=$STATE/storage.conf CONTAINERS_CONF=$STATE/containers.conf podman system reset -f
#   rm -rf "$STATE"
#
# Output: one "PASS name" / "FAIL name" line per check, then "N passed, M failed".
# Exit status 1 on any failure. Timings of the big steps go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

STATE=${CANTONLITE_CONTAINER_STATE:-/var/tmp/cantonlite-containers}
BASE=localhost/bookworm-base:latest
IMAGE=localhost/cantonlite:smoke

now_us() { echo "${EPOCHREALTIME/./}"; }
fmt_us() { printf '%d.%03ds' $(($1 / 1000000)) $(($1 % 1000000 / 1000)); }
# t LABEL CMD...: run CMD, print its wall time to stderr, keep its exit status.
t() {
  local label=$1 start rc=0
  shift
  start=$(now_us)
  "$@" || rc=$?
  local status=""
  ((rc == 0)) || status=" (exit $rc)"
  echo "[timing] $label: $(fmt_us $(($(now_us) - start)))$status" >&2
  return "$rc"
}
script_start=$(now_us)

# 1. tools (Debian packages only)
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
  install_tools() {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap >/dev/null
  }
  t "install podman runc debootstrap" install_tools
fi
for tool in curl python3; do
  command -v "$tool" >/dev/null || { echo "smoke.sh: $tool is required" >&2; exit 1; }
done

# 2. podman config kept under $STATE (nothing in /var/lib/containers)
mkdir -p "$STATE"
export CONTAINERS_STORAGE_CONF=$STATE/storage.conf CONTAINERS_CONF=$STATE/containers.conf
cat > "$CONTAINERS_STORAGE_CONF" <<EOF
[storage]
driver = "overlay"
graphroot = "$STATE/storage"
runroot = "$STATE/run"
EOF
# Without CAP_SYS_RESOURCE podman's default rlimits (nofile/nproc 1048576) cannot be set, and
# podman lowers its own hard nproc to 32768. crun rejects hybrid cgroups (v1 + v2): use runc.
nofile=$(ulimit -Hn)
[[ $nofile =~ ^[0-9]+$ ]] && ((nofile < 1048576)) || nofile=1048576
nproc=$(ulimit -Hu)
[[ $nproc =~ ^[0-9]+$ ]] && ((nproc < 32768)) || nproc=32768
cat > "$CONTAINERS_CONF" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF

# 3. local base image, like debian:bookworm-slim (cached in $STATE between runs)
make_base() {
  local rootfs mirror
  rootfs=$(mktemp -d /var/tmp/bookworm-rootfs.XXXXXX)
  # The mirror comes from the host's apt config; with none, debootstrap uses its default.
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  t "debootstrap" debootstrap --variant=minbase bookworm "$rootfs" ${mirror:+"$mirror"} >/dev/null
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    cp /etc/apt/sources.list.d/debian.sources "$rootfs/etc/apt/sources.list.d/"
    rm -f "$rootfs/etc/apt/sources.list"
  fi
  # the apt/dpkg tweaks of the slim image: no caches, docs, man pages or locales
  printf '%s\n' 'Dir::Cache::pkgcache "";' 'Dir::Cache::srcpkgcache "";' > "$rootfs/etc/apt/apt.conf.d/docker-clean"
  echo 'Acquire::Languages "none";' > "$rootfs/etc/apt/apt.conf.d/docker-no-languages"
  printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
    'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
    'path-exclude /usr/share/locale/*' 'path-include /usr/share/locale/locale.alias' \
    > "$rootfs/etc/dpkg/dpkg.cfg.d/docker"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*.log
  find "$rootfs"/usr/share/doc -type f ! -name copyright -delete
  find "$rootfs"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  t "podman import" sh -c "tar --numeric-owner --exclude='./dev/*' -C '$rootfs' -c . \
    | podman import -q --change 'CMD [\"/bin/bash\"]' - '$BASE' >/dev/null"
  rm -rf "$rootfs"
}
if ! podman image exists "$BASE"; then
  t "base image $BASE" make_base
fi

# 4. build the image against the local base (full log in $STATE/build.log)
build_log=$STATE/build.log
build_image() {
  podman build --network host -f docker/Dockerfile \
    --build-arg BASE_IMAGE="$BASE" -t "$IMAGE" . > "$build_log" 2>&1
}
if ! t "podman build $IMAGE" build_image; then
  tail -n 60 "$build_log"
  echo "FAIL build (full log: $build_log)"
  echo "0 passed, 1 failed"
  exit 1
fi

# 5. smoke test: the server on a free loopback port, reached from the host
passed=0
failed=0
check() {  # check NAME CMD...: a PASS/FAIL line
  local name=$1
  shift
  if "$@"; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
}

tmp=$(mktemp -d)
cid=""
lcid=""
cleanup() {
  if [ -n "$cid" ]; then podman rm -f "$cid" >/dev/null 2>&1 || true; fi
  if [ -n "$lcid" ]; then podman rm -f "$lcid" >/dev/null 2>&1 || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
if ! cid=$(podman run -d --network host -e CANTONLITE_ADDRESS=127.0.0.1 -e CANTONLITE_PORT="$port" "$IMAGE"); then
  cid=""
  echo "FAIL podman run"
  echo "0 passed, 1 failed"
  exit 1
fi

wait_ready() {  # up to ~10 s; gives up early if the container exits
  local _
  for _ in $(seq 1 100); do
    curl -fsS -m 1 -o /dev/null "http://127.0.0.1:$port/api/scan/livez" 2>/dev/null && return 0
    [ "$(podman inspect "$cid" --format '{{.State.Running}}')" = true ] || return 1
    sleep 0.1
  done
  return 1
}
check ready t "container ready" wait_ready

# GET PATH: sets $code (HTTP status, 000 when unreachable) and $tmp/body
get() { code=$(curl -sS -m 5 -o "$tmp/body" -w '%{http_code}' "http://127.0.0.1:$port$1" 2>/dev/null) || code=${code:-000}; }
scan_livez() { get /api/scan/livez && [ "$code" = 200 ] && [ ! -s "$tmp/body" ]; }
validator_livez() { get /api/validator/livez && [ "$code" = 200 ]; }
dso_party_id() { get /api/scan/v0/dso-party-id && [ "$code" = 200 ] && grep -q '"dso_party_id"' "$tmp/body"; }
check "GET /api/scan/livez is 200 with an empty body" scan_livez
check "GET /api/validator/livez is 200" validator_livez
check "GET /api/scan/v0/dso-party-id is 200 with dso_party_id" dso_party_id

# The uid of PID 1 (the server itself, exec form) as the kernel sees it.
pid1_uid() { podman exec "$cid" sh -c 'awk "/^Uid:/{print \$2}" /proc/1/status'; }
pid1_is_cantonlite() { [ "$(podman exec "$cid" cat /proc/1/comm)" = cantonlite ]; }
non_root() { local uid; uid=$(pid1_uid) && [[ $uid =~ ^[0-9]+$ ]] && [ "$uid" != 0 ]; }
check "PID 1 is cantonlite" pid1_is_cantonlite
check "server runs as a non-root user" non_root

stop_clean() {
  t "podman stop" podman stop -t 10 "$cid" >/dev/null || return 1
  local rc
  rc=$(podman inspect "$cid" --format '{{.State.ExitCode}}')
  echo "exit code after SIGTERM: $rc" >&2
  [ "$rc" = 0 ]
}
check "podman stop exits with code 0" stop_clean

# 6. serve --localnet in a second container, on the host's network as above: LocalNet's ports,
# its shipped LocalNet-shaped network, each wallet user on their role's validator only. Skipped
# (with the reason) when one of LocalNet's ports is taken on this machine.
localnet_ports=(2975 3975 4975 2903 3903 4903 2000 3000 4000)
port_taken() { python3 -c 'import socket,sys;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(("127.0.0.1",int(sys.argv[1])))' "$1" 2>/dev/null && return 1 || return 0; }
taken=""
for p in "${localnet_ports[@]}"; do port_taken "$p" && taken="$taken $p"; done
if [ -n "$taken" ]; then
  echo "SKIP --localnet checks: port(s)$taken in use on this machine"
else
  lport=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  if lcid=$(podman run -d --network host -e CANTONLITE_ADDRESS=127.0.0.1 -e CANTONLITE_PORT="$lport" \
      "$IMAGE" serve --localnet); then
    # lget PORT PATH [HOST] [USER]: sets $code and $tmp/body; USER's token from the image's own
    # `cantonlite token --localnet`.
    lget() {
      local args=(-sS -m 5 -o "$tmp/body" -w '%{http_code}')
      [ -n "${3:-}" ] && args+=(-H "Host: $3")
      if [ -n "${4:-}" ]; then
        args+=(-H "Authorization: Bearer $(podman exec "$lcid" /opt/cantonlite/bin/cantonlite token --localnet --user "$4")")
      fi
      code=$(curl "${args[@]}" "http://127.0.0.1:$1$2" 2>/dev/null) || code=${code:-000}
    }
    localnet_ready() {
      local _
      for _ in $(seq 1 100); do
        lget 4000 /api/scan/livez scan.localhost:4000 && [ "$code" = 200 ] && return 0
        [ "$(podman inspect "$lcid" --format '{{.State.Running}}')" = true ] || return 1
        sleep 0.1
      done
      return 1
    }
    offers=/api/validator/v0/wallet/transfer-offers
    own_wallet() { lget 2903 "$offers" "" app-user && [ "$code" = 200 ] && grep -q '"offers"' "$tmp/body"; }
    other_wallet() { lget 3903 "$offers" "" app-user && [ "$code" = 404 ] && grep -q "No wallet found for user 'app-user'" "$tmp/body"; }
    provider_wallet() { lget 3000 "$offers" wallet.localhost:3000 app-provider && [ "$code" = 200 ]; }
    scan_by_host() { lget 4000 /api/scan/v0/dso-party-id scan.localhost:4000 && [ "$code" = 200 ] && grep -q '"DSO::' "$tmp/body"; }
    ledger_end() { lget 3975 /v2/state/ledger-end "" ledger-api-user && [ "$code" = 200 ] && grep -q '"offset"' "$tmp/body"; }
    before=$failed
    check "--localnet: ready on scan.localhost:4000" t "localnet container ready" localnet_ready
    check "--localnet: app-user's wallet on 2903 is 200" own_wallet
    check "--localnet: app-user's wallet on 3903 is the validator's 404" other_wallet
    check "--localnet: app-provider's wallet on wallet.localhost:3000 is 200" provider_wallet
    check "--localnet: Scan as scan.localhost:4000 is 200" scan_by_host
    check "--localnet: ledger-api-user's ledger end on 3975 is 200" ledger_end
    if ((failed > before)); then
      echo "---- podman logs $lcid (serve --localnet) ----"
      podman logs "$lcid" 2>&1 | tail -n 40 || true
    fi
  else
    lcid=""
    echo "FAIL podman run serve --localnet"
    failed=$((failed + 1))
  fi
fi

if ((failed > 0)); then
  echo "---- podman logs $cid ----"
  podman logs "$cid" 2>&1 || true
  echo "---- end of logs ----"
fi
echo "[timing] total: $(fmt_us $(($(now_us) - script_start)))" >&2
echo "$passed passed, $failed failed"
((failed == 0)) || exit 1
