#!/usr/bin/env bash
# The local fleet in containers: npm run fleet -- up|scale|status|down (docs/deploy.md).
# Builds the project first when the fleet's command is not built, or older than its sources.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

main=dist/deploy/fleet/main.js
if [ ! -f "$main" ] || [ -n "$(find deploy/fleet -name '*.ts' ! -name '*.spec.ts' -newer "$main" -print -quit)" ]; then
  npm run --silent build >&2
fi
exec node --enable-source-maps "$main" "$@"
