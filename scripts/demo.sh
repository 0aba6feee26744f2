#!/usr/bin/env bash
# npm run demo: the shop at http://localhost:3000 with demo data on the local database.
# It listens on 127.0.0.1 only: the demo's logins are well known and its caught mail holds reset
# links. HOST=0.0.0.0 npm run demo opens it to the network (the caught mail stays local-only).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build
# The shop prints the demo logins as it starts: admin, a customer, and the trade company's owner,
# buyer (with a limit per order) and accounts person.
HOST="${HOST:-127.0.0.1}" NODE_ENV=production exec node build/server.js
