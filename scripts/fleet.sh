#!/usr/bin/env bash
# The local fleet in containers: npm run fleet -- up|scale|status|down (docs/deploy.md).
# Builds the project first when the fleet's command is not built yet.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

main=dist/deploy/fleet/main.js
if [ ! -f "$main" ]; then
  npm run --silent build >&2
fi
exec node --enable-source-maps "$main" "$@"
