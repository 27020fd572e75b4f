#!/usr/bin/env bash
# The security gate, run by .ci/run after the tests: it builds nothing and expects
# .build/release/navsim. Three checks against the live binary on 127.0.0.1, each with its own
# time bound, under a hard cap of 15 minutes in all:
#   scripts/schemathesis.sh   openapi.yaml fuzzed and followed through its links (≤ 6 min)
#   scripts/kill-loop.py      SIGKILL under 8 writers, 10 cycles: no acknowledged write lost (≤ 90 s)
#   scripts/hostile.py        hostile input, each check with its bound
# All three run even when one fails; the gate fails when any of them does.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

binary=${NAVSIM_BIN:-.build/release/navsim}
[ -x "$binary" ] || { echo "no $binary: build it first (swift build -c release)" >&2; exit 2; }

names=(schemathesis kill-loop hostile)
commands=(
  "timeout --kill-after=30 420 scripts/schemathesis.sh"
  "timeout --kill-after=10 150 python3 scripts/kill-loop.py"
  "timeout --kill-after=10 300 python3 scripts/hostile.py"
)
results=()
failed=0
start=$SECONDS
for i in "${!names[@]}"; do
  echo "== security: ${names[$i]}"
  t0=$SECONDS
  if bash -c "${commands[$i]}"; then
    results+=("ok    ${names[$i]} ($((SECONDS - t0))s)")
  else
    rc=$?
    results+=("FAIL  ${names[$i]} (exit $rc, $((SECONDS - t0))s)")
    failed=$((failed + 1))
  fi
done

echo "== security summary ($((SECONDS - start))s)"
printf '%s\n' "${results[@]}"
echo "security: $(( ${#names[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
