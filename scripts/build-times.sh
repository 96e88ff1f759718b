#!/usr/bin/env bash
# Where a build tree's compile time went, from Ninja's own log: the CPU seconds of its objects,
# by target (the library's together), and the slowest objects.
#   scripts/build-times.sh [TREE...]   (default: build build-san build-tsan; TOP=N slowest, 8)
# Each object counts once, at its latest build (a rebuilt object's older entries are dropped).
set -euo pipefail
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=(build build-san build-tsan)
for tree in "${trees[@]}"; do
  log="$tree/.ninja_log"
  [ -f "$log" ] || { echo "$tree: not built yet"; continue; }
  # One line per object the tree builds now (the log keeps objects it no longer builds): seconds,
  # then its path.
  objects=$(awk 'NR == FNR { current[$1] = 1; next }
                 !/^#/ && ($4 in current) { secs[$4] = ($2 - $1) / 1000 }
                 END { for (o in secs) printf "%.1f %s\n", secs[o], o }' \
              <(ninja -C "$tree" -t targets all | sed -n 's/^\([^:]*\.o\): .*/\1/p') "$log" |
            sort -rn)
  awk -v tree="$tree" '
    { group = $2
      sub(/\.dir\/.*/, "", group); sub(/.*CMakeFiles\//, "", group)
      if ($2 ~ /^src\//) group = "the library (src/)"
      sum[group] += $1; count[group]++; total += $1; n++ }
    END { printf "%s: %.0f CPU s in %d objects\n", tree, total, n
          for (g in sum) printf "  %-30s %6.0f s in %3d objects\n", g, sum[g], count[g] }' \
    <<<"$objects"
  head -n "${TOP:-8}" <<<"$objects" | awk '{ printf "  %6.1f s  %s\n", $1, $2 }'
done
