#!/usr/bin/env bash
# The main job: set up, start the farm (embedded default: a private redis-server unless
# REDIS_URL is set), solve the bundled examples through it, then keep serving until Ctrl-C.
# SATFARM_DEMO_ONLY=1 (or CI=true) stops the farm after the examples.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh

port="${PORT:-3000}"
api="http://127.0.0.1:${port}"
bin/satfarm serve --port "$port" &
farm=$!
trap 'kill -TERM "$farm" 2>/dev/null || true; wait "$farm" 2>/dev/null || true' EXIT

for _ in $(seq 1 150); do
  if curl -fsS "$api/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$farm" 2>/dev/null; then echo "start: the farm did not start" >&2; exit 1; fi
  sleep 0.2
done

examples=(
  "cube examples/cube-2x2.json"
  "cube examples/cube-3x3.json"
  "snake examples/snake-8x8.json"
  "hexahop examples/hexahop-hive.json"
  "towers examples/towers-5.txt"
  "singles examples/singles-6x6.txt"
  "tictactoe examples/tictactoe.json"
  "cnf examples/php-8.cnf"
  "cnf examples/random3-200-r41-s1.cnf"
)
for example in "${examples[@]}"; do
  read -r game file <<<"$example"
  echo "== bin/satfarm submit $game --input $file"
  code=0
  bin/satfarm submit "$game" --input "$file" --api "$api" --no-progress || code=$?
  echo "(exit code $code)"
done

if [ "${SATFARM_DEMO_ONLY:-}" = "1" ] || [ "${CI:-}" = "true" ]; then exit 0; fi
echo "The farm is serving at $api (OpenAPI at $api/docs, queues at $api/queues). Ctrl-C stops it."
wait "$farm"
