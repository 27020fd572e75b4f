#!/usr/bin/env bash
# The run command (README): installs what is missing, builds the release binary and serves on
# 127.0.0.1:8080 with ./navsim.sqlite. NAVSIM_HOST, NAVSIM_PORT and NAVSIM_DB change the
# defaults; further arguments go to navsim as they are.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-prereqs.sh
swift build -c release
# The checkout's migrations/ (the binary looks next to itself, which .build/release is not).
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$PWD/migrations}
exec .build/release/navsim \
  --host "${NAVSIM_HOST:-127.0.0.1}" \
  --port "${NAVSIM_PORT:-8080}" \
  --db "${NAVSIM_DB:-./navsim.sqlite}" \
  "$@"
