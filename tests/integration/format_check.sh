#!/usr/bin/env bash
# clang-format --dry-run -Werror over the tracked C++ files. Exit 77 (skipped) without clang-format.
set -euo pipefail
cd "$1"
command -v clang-format >/dev/null || { echo "SKIPPED: clang-format not installed"; exit 77; }
files=$(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find src include tests -name '*.[ch]pp')
clang-format --dry-run -Werror $files
echo "formatted: $(echo "$files" | wc -w) files"
