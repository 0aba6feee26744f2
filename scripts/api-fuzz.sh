#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis (from PyPI, into a virtual
# environment under .cache/, made once and reused). Usage:
#   API_FUZZ_URL=http://127.0.0.1:3000 API_FUZZ_KEY=pw_live_... bash scripts/api-fuzz.sh
# Fails on any 5xx, any answer that breaks the document, or any undocumented status.
set -euo pipefail
cd "$(dirname "$0")/.."
SCHEMATHESIS_VERSION=4.32.5
venv=.cache/schemathesis-venv
# The installed version, from its metadata folder's name (asking pip takes seconds of CPU at each run).
installed=$(compgen -G "$venv/lib/python3*/site-packages/schemathesis-$SCHEMATHESIS_VERSION.dist-info" || true)
if [ ! -x "$venv/bin/schemathesis" ] || [ -z "$installed" ]; then
  if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
if [ "${1:-}" = "--install-only" ]; then exit 0; fi
: "${API_FUZZ_URL:?set API_FUZZ_URL to the address of the shop}"
: "${API_FUZZ_KEY:?set API_FUZZ_KEY to an API key}"
export NO_COLOR=1
# schemathesis and hypothesis keep their caches in the working directory: under .cache/, not the repo.
mkdir -p .cache/schemathesis-work
cd .cache/schemathesis-work
exec "../../$venv/bin/schemathesis" run "$API_FUZZ_URL/api/v1/openapi.json" \
  --url "$API_FUZZ_URL/api/v1" \
  --header "Authorization: Bearer $API_FUZZ_KEY" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,negative_data_rejection,ignored_auth \
  --max-examples "${API_FUZZ_EXAMPLES:-20}" \
  --seed "${API_FUZZ_SEED:-1}" \
  --request-timeout "${API_FUZZ_TIMEOUT:-30}" \
  "${@}"
