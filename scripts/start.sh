#!/usr/bin/env bash
# Sets up (when needed) and starts Quire on embedded defaults at http://localhost:${PORT:-8080}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec npm start --silent
