#!/usr/bin/env bash
# Installs the Debian 12 packages cantonlite needs to build and test, when any is missing, and
# the packages named as arguments (`make fuzz` adds clang). Uses sudo when not run as root.
# Prints nothing when everything is there.
set -euo pipefail
packages=(g++ make cmake ninja-build ccache libboost1.81-dev nlohmann-json3-dev libspdlog-dev
          libgtest-dev libssl-dev zlib1g-dev libsimdjson-dev libzstd-dev libprotobuf-dev protobuf-compiler libpq-dev libjemalloc-dev libisal-dev postgresql curl
          python3 python3-prometheus-client python3-websocket "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
