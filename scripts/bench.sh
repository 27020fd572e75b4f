#!/usr/bin/env bash
# navsim's performance figures beside their anchors (issue 11), measured in one run: not a test,
# and not part of .ci/run or test.sh. Needs wrk and a C compiler (scripts/install-bench-prereqs.sh
# installs them); installs nothing itself. Loopback only; about 4 minutes, --quick about 1.
#
#   scripts/bench.sh [--quick] [--rounds N] [--seconds S]
#
# Builds the release binary, compiles the anchors (scripts/bench/raw_mhd.c against libmicrohttpd,
# scripts/bench/naive_sqlite.c against libsqlite3) into a temporary folder, then runs
# scripts/bench/bench.py, which prints one line per figure: figure, navsim, anchor, ratio, target.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in wrk cc python3 pkg-config; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing; run scripts/install-bench-prereqs.sh" >&2; exit 1; }
done
swift build -c release >&2
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$PWD/migrations}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/raw_mhd" scripts/bench/raw_mhd.c $(pkg-config --cflags --libs libmicrohttpd)
cc -O2 -o "$tmp/naive_sqlite" scripts/bench/naive_sqlite.c $(pkg-config --cflags --libs sqlite3)
# Ten minutes at most, whatever happens.
timeout 600 python3 scripts/bench/bench.py --navsim .build/release/navsim --raw "$tmp/raw_mhd" \
  --naive "$tmp/naive_sqlite" "$@"
