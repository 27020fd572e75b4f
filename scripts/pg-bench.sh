#!/usr/bin/env bash
# Commit round trip (p50, p99) and 16-client throughput of the SQLite store and of the
# PostgreSQL store on a throwaway cluster (scripts/pg-cluster.sh), with the release build of
# store-bench. Bounded: COUNT commits per phase (default 1000). Prints one line per figure.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
swift build -c release --product store-bench >/dev/null
bench=.build/release/store-bench
tmp=$(mktemp -d)
out=$(scripts/pg-cluster.sh start)
dir=$(echo "$out" | head -n 1)
url=$(echo "$out" | tail -n 1)
trap 'scripts/pg-cluster.sh stop "$dir"; rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores; SQLite in $(df -P "$tmp" | awk 'NR == 2 { print $1 }'), PostgreSQL $(psql "$url" -Atc 'SHOW server_version' 2>/dev/null || echo '?') in $dir"
timeout 300 "$bench" sqlite "$tmp" migrations "$count"
timeout 300 "$bench" postgres "$url" migrations-postgres "$count"
