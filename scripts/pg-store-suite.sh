#!/usr/bin/env bash
# Runs the store suite (Tests/StoreTests) against a throwaway PostgreSQL cluster as well as
# SQLite, the service's cases on PostgreSQL (SharedStoreServiceTests: several instances on one
# database) and the database an earlier release wrote (PostgresFixtureTests): starts the cluster
# with scripts/pg-cluster.sh, always stops and removes it, and fails if the PostgreSQL cases did
# not actually run. Needs scripts/install-cluster-prereqs.sh.
# Bounded: 10 minutes for the test run.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$(scripts/pg-cluster.sh start)
dir=$(echo "$out" | head -n 1)
url=$(echo "$out" | tail -n 1)
xunit=$(mktemp)
trap 'scripts/pg-cluster.sh stop "$dir"; rm -f "$xunit"' EXIT
echo "throwaway PostgreSQL cluster at $url (data in $dir)"

export NAVSIM_TEST_POSTGRES=$url
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$PWD/migrations}
swift build --build-tests
start=$(date +%s.%N)
set +e
timeout 600 swift test --skip-build --disable-xctest --xunit-output "$xunit" --filter 'StoreContractTests|PostgresStoreTests|ChunkedDeletionTests|StoryboardSharingTests|SharedStoreServiceTests|PostgresFixtureTests' 2>&1
status=$?
set -e
end=$(date +%s.%N)
[ "$status" -eq 0 ] || exit "$status"
# Read from Swift Testing's xUnit report, not its console lines: those share the pipe with the
# test servers' logs and one run lost most of them (every test passed, but no "Suite … passed"
# line for "Service on PostgreSQL"). A skipped case is a <skipped> element of its <testcase>.
ran() { grep -q "<testcase classname=\"$1\"" "$xunit"; }
if grep -q '<skipped' "$xunit" || ! ran StoreTests.PostgresStoreTests \
    || ! ran NavSimServiceTests.SharedStoreServiceTests || ! ran NavSimServiceTests.PostgresFixtureTests; then
  echo "pg-store-suite: the PostgreSQL cases did not run" >&2
  exit 1
fi
printf 'store suite on SQLite and PostgreSQL: %.1f s\n' "$(echo "$end - $start" | bc -l 2>/dev/null || python3 -c "print($end - $start)")"
