#!/usr/bin/env bash
# navsim's performance figures beside their anchors, measured in one run: not a test,
# and not part of .ci/run or test.sh. Needs wrk and a C compiler (scripts/install-bench-prereqs.sh
# installs them); installs nothing itself. Loopback only; the figures about 4 minutes (--quick
# about 1), then the scale part (below).
#
#   scripts/bench.sh [--quick] [--rounds N] [--seconds S] [--read-rounds N] [--read-seconds S] [--only reads|writes|history|push|listing ...] [--skip-scale | --scale-only] [--help]
#
# After those figures, scale_figures runs scripts/bench/scale.py: restart and RSS at 50,000 and
# 100,000 sessions of 10 controllers (seeded by copying one session's rows with SQL), a DELETE of
# a 10,000-entry session beside other writers, history pages beside ?version=N loops. That part
# takes about 6 more minutes (--quick: 5,000 / 10,000 sessions); --skip-scale leaves it out,
# --scale-only runs only it. BENCH_SCALE_ARGS passes more options to scale.py (--skip-big, …).
#
# Builds the release binary, compiles the anchors (scripts/bench/raw_mhd.c against libmicrohttpd,
# scripts/bench/naive_sqlite.c against libsqlite3) into a temporary folder, then runs
# scripts/bench/bench.py, which prints one line per figure: figure, navsim, anchor, ratio, target.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in wrk cc python3 pkg-config; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing; run scripts/install-bench-prereqs.sh" >&2; exit 1; }
done
main_args=() scale=1 main=1
for arg in "$@"; do
  case "$arg" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --skip-scale) scale=0 ;;
    --scale-only) main=0 ;;
    *) main_args+=("$arg") ;;
  esac
done

# Restart, memory, chunked delete and the reader pool: scripts/bench/scale.py.
scale_figures() {
  local quick=()
  for arg in "${main_args[@]}"; do [[ "$arg" == --quick ]] && quick=(--quick); done
  # shellcheck disable=SC2086  # BENCH_SCALE_ARGS is a list of options
  timeout 1200 python3 scripts/bench/scale.py --navsim .build/release/navsim "${quick[@]}" ${BENCH_SCALE_ARGS:-}
}

swift build -c release >&2
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$PWD/migrations}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/raw_mhd" scripts/bench/raw_mhd.c $(pkg-config --cflags --libs libmicrohttpd)
cc -O2 -o "$tmp/naive_sqlite" scripts/bench/naive_sqlite.c $(pkg-config --cflags --libs sqlite3)
cc -O2 -shared -fPIC -o "$tmp/slow_fsync.so" scripts/bench/slow_fsync.c -ldl
# Ten minutes at most, whatever happens.
if (( main )); then
  timeout 600 python3 scripts/bench/bench.py --navsim .build/release/navsim --raw "$tmp/raw_mhd" \
    --naive "$tmp/naive_sqlite" --slow-fsync "$tmp/slow_fsync.so" "${main_args[@]}"
fi
if (( scale )); then scale_figures; fi
