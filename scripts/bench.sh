#!/usr/bin/env bash
# Builds and runs benchmarks: all of them, or those whose path contains the given words
# (e.g. `npm run bench -- cube`). Each prints a table and writes bench/results/<name>.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npm run --silent build
shopt -s nullglob
for bench in dist/bench/*/*.bench.js; do
  if [ $# -gt 0 ]; then
    match=0
    for word in "$@"; do [[ "$bench" == *"$word"* ]] && match=1; done
    [ $match -eq 1 ] || continue
  fi
  echo "== $bench"
  node --enable-source-maps "$bench"
done
