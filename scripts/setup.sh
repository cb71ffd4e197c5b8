#!/usr/bin/env bash
# One-time (and idempotent) set-up: system packages (kissat and friends), npm packages, build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-system-deps.sh

# npm packages exactly as package-lock.json lists them, when it changed since the last install.
# `npm ci` never rewrites the lock file, so a fresh clone stays clean.
stamp=node_modules/.satfarm-lock.sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

npm run --silent build

# The 3x3 cube's pattern tables for its lower bound (docs/games.md#cube), built once into the cache
# every process shares (about 45 s on 2 shared cores; nothing when present). SATFARM_PDB_DIR=off
# keeps the small databases alone.
if [ "${SATFARM_PDB_DIR:-}" != off ]; then
  bin/satfarm cube-tables build
fi
echo "setup: done (kissat $(kissat --version), node $(node --version))"
