#!/usr/bin/env bash
# npm test [unit|e2e|all] [-- runner arguments]: installs what is missing, then runs the suites
# against a throwaway local database and a production build of the shop.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh --browser
exec npx tsx tests/harness.ts "$@"
