#!/usr/bin/env bash
# Sets up (when needed) and runs every test suite: Biome and type checks, then the unit, web, integration and
# corpus tests in one Vitest run (its workers run the suites side by side), then the end-to-end tests.
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
# Most test time is spent waiting on engines and the browser, so more workers than cores pays. The
# browser suite runs after the others, two files at a time: beside the corpus passes, Chromium and the
# corpus engines starve each other on 2 cores. Arguments (file filters, -t) go to both runs.
npx vitest run --maxWorkers=3 --passWithNoTests --project unit --project web --project integration --project corpus "$@"
npx vitest run --maxWorkers=2 --passWithNoTests --project e2e "$@"
