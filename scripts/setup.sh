#!/usr/bin/env bash
# One-time (and idempotent) set-up: system packages (kissat and friends), npm packages, build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-system-deps.sh

# npm packages, when the lockfile changed since the last install. `npm install` rather than
# `npm ci`: the registry this machine reaches does not serve other platforms' optional binaries
# (e.g. @swc/core-darwin-arm64), which the lockfile cannot list and `npm ci` then rejects.
stamp=node_modules/.satfarm-lock.sha
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  npm install --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi

npm run --silent build
echo "setup: done (kissat $(kissat --version), node $(node --version))"
