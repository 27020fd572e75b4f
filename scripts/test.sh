#!/usr/bin/env bash
# The test command (README, .ci/run): on a fresh Debian 12 machine as root it installs what is
# missing, builds the release binary, runs every Swift test suite, then plays the acceptance
# scenarios named in scripts/acceptance-gate.txt against the release binary.
#
# acceptance-gate.txt: one scenario file name of ../shared/acceptance/scenarios per line
# (e.g. 01-presentation.json); blank lines and '#' comments are ignored. A file is added once
# all of its scenarios pass; with none listed the acceptance step is skipped.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# shared/ (scenarios, storyboards, API.md): found once here, read by the Swift tests too.
NAVSIM_SHARED=$("$repo/scripts/find-shared.sh")
export NAVSIM_SHARED
cd "$repo"
# The checkout's migrations/ for every binary the tests start (.build/… has none beside it).
export NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$repo/migrations}

scripts/install-prereqs.sh

echo "== swift build -c release"
swift build -c release

echo "== swift test"
swift test

echo "== acceptance"
gate=scripts/acceptance-gate.txt
scenarios=()
if [ -f "$gate" ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=$(echo "$line" | tr -d '[:space:]')
    [ -n "$line" ] && scenarios+=("$line")
  done <"$gate"
fi
if [ ${#scenarios[@]} -eq 0 ]; then
  echo "$gate lists no scenario files: acceptance step skipped"
  exit 0
fi

shared=$NAVSIM_SHARED
dir="$shared/acceptance/scenarios"
if [ -z "$shared" ] || [ ! -d "$dir" ]; then
  echo "cannot find shared/acceptance beside the repository or its origin (set NAVSIM_SHARED)" >&2
  exit 1
fi
files=()
for name in "${scenarios[@]}"; do
  [ -f "$dir/$name" ] || { echo "$gate: no scenario file $dir/$name" >&2; exit 1; }
  files+=("$dir/$name")
done
python3 "$shared/acceptance/run.py" \
  --spawn ".build/release/navsim --host 127.0.0.1 --port {port} --db {db}" "${files[@]}"
