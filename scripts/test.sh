#!/usr/bin/env bash
# Every test: set-up (idempotent), formatting, lint, types, unit and end-to-end specs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
npx prettier --check . --log-level warn
npx eslint . --max-warnings 0
npx tsc -p tsconfig.json --noEmit
npx tsc -p apps/web/tsconfig.json --noEmit
mkdir -p test/artifacts
# vitest's own summary is followed by a plain "N passed, N failed" line for log readers.
set +e
npx vitest run --reporter=default --reporter=json --outputFile.json=test/artifacts/vitest.json "$@"
status=$?
set -e
node -e '
  const r = require("./test/artifacts/vitest.json");
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' || true
exit $status
