#!/usr/bin/env bash
# README's test command. On a bare clone it checks the prerequisites (and installs the Debian
# libraries when it can), builds the release binary, runs every Swift test suite, then plays the
# repository's flows (Tests/Flows) with `navsim test --base` against the release binary serving
# real HTTP. When the project's optional shared/ folder is found (beside the checkout, beside the
# checkout it was cloned from, or $NAVSIM_SHARED), the Swift tests also use its storyboard corpus
# and the shared acceptance scenarios listed in scripts/acceptance-gate.txt are played too.
# The last lines are the summary.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

echo "== optional material"
NAVSIM_SHARED=$(scripts/find-shared.sh)
export NAVSIM_SHARED
if [ -n "$NAVSIM_SHARED" ]; then
  echo "shared/ found at $NAVSIM_SHARED: storyboard corpus, acceptance scenarios and shared/design/API.md checks included"
else
  echo "no shared/ folder beside the checkout: in-repository fixtures and flows only"
fi

echo "== prerequisites"
missing=()
command -v swift >/dev/null || missing+=("swift (Swift 6.x toolchain on PATH, see swift.org/install)")
command -v python3 >/dev/null || missing+=("python3")
command -v curl >/dev/null || missing+=("curl")
if [ ${#missing[@]} -gt 0 ]; then
  printf 'missing prerequisite: %s\n' "${missing[@]}" >&2
  exit 1
fi
swift_version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9]*\)\..*/\1/p' | head -n 1)
if [ -n "$swift_version" ] && [ "$swift_version" -lt 6 ]; then
  echo "missing prerequisite: Swift 6 or later (found Swift $swift_version)" >&2
  exit 1
fi
scripts/install-prereqs.sh
# The checkout's migrations/ for every binary the tests start (.build/… has none beside it).
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$repo/migrations}
summary=()

echo "== swift build -c release"
swift build -c release

echo "== swift test"
log=$(mktemp)
xunit=$(mktemp)
trap 'rm -f "$log" "$xunit"' EXIT
set +e
swift test --disable-xctest --xunit-output "$xunit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
line=$(grep -E '^[^ ]+ Test run with [0-9]+ tests? ' "$log" | tail -n 1 || true)
# The counts come from Swift Testing's xUnit report, not from its console lines: other output
# (server logs of the tests) can share a line with them. Its closing console line counts skipped
# tests with the passed ones; the report counts them apart.
# Elements, not the testsuite's attributes: its `tests` leaves the skipped ones out.
# grep finds nothing in a report without skipped tests: that is a count of 0, not a failure
# (under pipefail, grep's exit 1 would end the script without a word).
count() { { grep -o "<$1[ >/]" "$xunit" || true; } | wc -l; }
tests=$(count testcase) failures=$(count failure) errors=$(count error) skipped=$(count skipped)
ran=$((tests - failures - errors - skipped))
summary+=("swift test: $ran tests passed, $skipped skipped, $((failures + errors)) failed (Swift Testing: ${line#* Test run with })")
[ "$status" -eq 0 ] || { printf '%s\n' "${summary[@]}"; exit "$status"; }
# The floor: a run that lost its tests (an empty or missing report, a filter left behind) has
# checked nothing, whatever its exit status. Raise it as the suite grows.
min_tests=${NAVSIM_MIN_TESTS:-900}
[ "$ran" -ge "$min_tests" ] || {
  printf '%s\n' "${summary[@]}"; echo "swift test: $ran tests passed, fewer than the minimum of $min_tests" >&2; exit 1; }

echo "== flows (Tests/Flows, navsim test --base against the release binary)"
# Run through bash, so a lost run bit cannot skip the flows; a missing script is a failure.
[ -f scripts/flows.sh ] || { echo "scripts/flows.sh is missing" >&2; exit 1; }
set +e
bash scripts/flows.sh 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
summary+=("flows: $(tail -n 1 "$log")")
[ "$status" -eq 0 ] || { printf '%s\n' "${summary[@]}"; exit "$status"; }
# Every flow file must have been played and passed: a run that found fewer has not checked them.
flow_files=$(find Tests/Flows -maxdepth 1 -name '*.json' | wc -l)
[[ $(tail -n 1 "$log") =~ ^[^0-9]*([0-9]+)\ passed ]] && [ "${BASH_REMATCH[1]}" -ge "$flow_files" ] \
  && [ "$flow_files" -gt 0 ] || {
  printf '%s\n' "${summary[@]}"; echo "flows: fewer passed than the $flow_files flow files in Tests/Flows" >&2; exit 1; }

echo "== shared acceptance scenarios"
scenarios=()
if [ -n "$NAVSIM_SHARED" ] && [ -f scripts/acceptance-gate.txt ]; then
  while IFS= read -r name || [ -n "$name" ]; do
    name=$(echo "${name%%#*}" | tr -d '[:space:]')
    [ -n "$name" ] || continue
    file="$NAVSIM_SHARED/acceptance/scenarios/$name"
    [ -f "$file" ] || { echo "scripts/acceptance-gate.txt: no scenario file $file" >&2; exit 1; }
    scenarios+=("$file")
  done <scripts/acceptance-gate.txt
fi
if [ ${#scenarios[@]} -eq 0 ]; then
  echo "skipped: no shared/ folder"
else
  set +e
  python3 "$NAVSIM_SHARED/acceptance/run.py" -q \
    --spawn ".build/release/navsim --host 127.0.0.1 --port {port} --db {db}" "${scenarios[@]}" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  summary+=("shared acceptance: $(tail -n 1 "$log")")
  [ "$status" -eq 0 ] || { printf '%s\n' "${summary[@]}"; exit "$status"; }
fi

echo "== summary"
printf '%s\n' "${summary[@]}"
# One closing line over everything that ran: Swift tests plus flow and scenario counts.
passed=0
failed=0
for entry in "${summary[@]}"; do
  if [[ $entry =~ ^swift\ test:\ ([0-9]+)\ tests\ passed ]]; then passed=$((passed + BASH_REMATCH[1])); fi
  if [[ $entry =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
  fi
done
echo "total: $passed passed, $failed failed"
