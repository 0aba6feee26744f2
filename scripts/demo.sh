#!/usr/bin/env bash
# npm run demo: the shop at http://localhost:3000 with demo data on the local database.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build
NODE_ENV=production exec node build/server.js
