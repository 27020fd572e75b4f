#!/usr/bin/env bash
# Prints the project's shared/ folder (design docs, spec, acceptance scenarios, storyboards), or
# nothing. It sits beside the checkout; a fresh clone made elsewhere (CI clones into a temporary
# folder) finds it beside the checkout it was cloned from. $NAVSIM_SHARED overrides;
# NAVSIM_SHARED=none finds nothing, to run as a clone with no shared/ would.
set -euo pipefail
[ "${NAVSIM_SHARED:-}" = none ] && exit 0
repo=$(cd "$(dirname "$0")/.." && pwd)
candidates=()
[ -n "${NAVSIM_SHARED:-}" ] && candidates+=("$NAVSIM_SHARED")
candidates+=("$(dirname "$repo")/shared" "$PWD/../shared")
origin=$(git -C "$repo" remote get-url origin 2>/dev/null || true)
if [ -n "$origin" ] && [ -d "$origin" ]; then
  candidates+=("$(cd "$origin/.." && pwd)/shared")
fi
for dir in "${candidates[@]}"; do
  if [ -f "$dir/acceptance/run.py" ]; then
    (cd "$dir" && pwd)
    exit 0
  fi
done
