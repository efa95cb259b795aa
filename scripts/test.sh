#!/usr/bin/env bash
# Sets up (when needed) and runs every test suite: Biome and type checks, then unit, web, integration,
# corpus and end-to-end tests in one Vitest run (its workers run the suites side by side).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
echo "test: formatting and lint (Biome)"
npx biome check .
echo "test: type-checking"
npx tsc -p tsconfig.json
npx tsc -p apps/web/tsconfig.json --noEmit
echo "test: checking layer boundaries"
npx depcruise --config .dependency-cruiser.cjs apps/server/src apps/web/src packages/contracts/src
echo "test: running the suites"
# Most test time is spent waiting on engines and the browser, so more workers than cores pays.
npx vitest run --maxWorkers=3 "$@"
