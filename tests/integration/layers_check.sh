#!/usr/bin/env bash
# layers.check: every layer includes only the layers and libraries it may (docs/architecture.md "Layout").
# Usage: layers_check.sh SOURCE_DIR. Prints each forbidden include and fails when there is one.
set -euo pipefail
root=${1:?usage: layers_check.sh SOURCE_DIR}

# What each layer may include besides itself: cantonlite layers, then third-party libraries
# (boost_containers: Boost's header-only open-addressing hash maps and flat maps, apart from the
# rest of Boost).
declare -A allowed=(
  [util]=""
  [model]="util nlohmann openssl"
  [auth]="model util nlohmann openssl"
  [interactive]="store model util openssl"
  [store]="model util boost_containers"
  [splice]="store model util nlohmann boost_containers"
  [journal]="util nlohmann boost spdlog libpq"
  [seed]="splice store model interactive journal util nlohmann boost_containers zlib simdjson zstd"
  [http]="util nlohmann spdlog zlib simdjson"
  [areas]="http splice store seed auth interactive model util nlohmann openssl spdlog"
  [net]="http util boost spdlog openssl"
  [app]="areas net seed splice store journal auth interactive http model util nlohmann spdlog openssl boost"
)

status=0
for layer in "${!allowed[@]}"; do
  for dir in "$root/src/$layer" "$root/include/cantonlite/$layer"; do
    [[ -d $dir ]] || continue
    while IFS=: read -r file line text; do
      target=$(sed -E -e 's@#include <boost/(unordered|container)/.*@boost_containers@' \
        -e 's@#include <zlib\.h>.*@zlib@' -e 's@#include <libpq-fe\.h>.*@libpq@' \
        -e 's@#include <simdjson\.h>.*@simdjson@' -e 's@#include <zstd\.h>.*@zstd@' \
        -e 's@#include [<"](cantonlite/)?([a-z_0-9]+).*@\2@' <<<"$text")
      [[ $target == "$layer" ]] && continue
      if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
        echo "${file#"$root"/}:$line: the $layer layer may not include $target: $text"
        status=1
      fi
    done < <(grep -rnE '#include [<"](cantonlite/[a-z_]+/|boost/|spdlog/|openssl/|nlohmann/|zlib\.h|libpq-fe\.h|simdjson\.h|zstd\.h)' "$dir" || true)
  done
done
[[ $status == 0 ]] && echo "layers: every include is allowed"
exit $status
