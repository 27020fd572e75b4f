#!/usr/bin/env bash
# Runs the store suite (Tests/StoreTests) against a throwaway PostgreSQL cluster as well as
# SQLite (issue 15), and the service's cases on PostgreSQL (SharedStoreServiceTests: several
# instances on one database): starts the cluster with scripts/pg-cluster.sh, always stops and
# removes it, and fails if the PostgreSQL cases did not actually run. Needs scripts/install-cluster-prereqs.sh.
# Bounded: 10 minutes for the test run.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$(scripts/pg-cluster.sh start)
dir=$(echo "$out" | head -n 1)
url=$(echo "$out" | tail -n 1)
log=$(mktemp)
trap 'scripts/pg-cluster.sh stop "$dir"; rm -f "$log"' EXIT
echo "throwaway PostgreSQL cluster at $url (data in $dir)"

export NAVSIM_TEST_POSTGRES=$url
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$PWD/migrations}
swift build --build-tests
start=$(date +%s.%N)
set +e
timeout 600 swift test --skip-build --disable-xctest --filter 'StoreContractTests|PostgresStoreTests|ChunkedDeletionTests|StoryboardSharingTests|SharedStoreServiceTests' 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
end=$(date +%s.%N)
[ "$status" -eq 0 ] || exit "$status"
if grep -qE 'skipped' "$log" || ! grep -qE 'Suite "PostgreSQL store" passed' "$log" \
    || ! grep -qE 'Suite "Service on PostgreSQL" passed' "$log"; then
  echo "pg-store-suite: the PostgreSQL cases did not run" >&2
  exit 1
fi
printf 'store suite on SQLite and PostgreSQL: %.1f s\n' "$(echo "$end - $start" | bc -l 2>/dev/null || python3 -c "print($end - $start)")"
