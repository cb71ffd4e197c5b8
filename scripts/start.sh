#!/usr/bin/env bash
# The main job on this machine: set up, then solve the bundled examples with the real solver.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
for example in examples/*.cnf; do
  echo "== bin/satfarm solve cnf --input $example"
  code=0
  bin/satfarm solve cnf --input "$example" || code=$?
  echo "(exit code $code)"
done
