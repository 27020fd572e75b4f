#!/usr/bin/env bash
# Every CI gate must fail against a server that refuses every write: each one is run here with
# NAVSIM_BIN pointing at scripts/gates/refuse-writes.py (a stand-in that passes reads to the
# release binary and answers every write 409) and must exit nonzero. A gate that passes against
# it can pass without having checked anything.
#
#   scripts/gates/check-gates.sh [GATE…]    gates: flows schemathesis kill-loop hostile sigterm
#                                            instructions (valgrind: install-bench-prereqs.sh)
#                                            cluster-sim (PostgreSQL and HAProxy: install-cluster-prereqs.sh)
#
# Needs .build/release/navsim (the stand-in's real server). Bounded: each gate keeps its own
# time cap, shortened here where a gate takes a duration (schemathesis' ST_MAX_TIME).
# Exit status: 0 when every gate failed as it must, 1 when one passed.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
[ -x .build/release/navsim ] || { echo "no .build/release/navsim: build it first (swift build -c release)" >&2; exit 2; }
export NAVSIM_BIN="$repo/scripts/gates/refuse-writes.py"
gates=("$@")
[ ${#gates[@]} -gt 0 ] || gates=(flows schemathesis kill-loop hostile sigterm)
declare -A commands=(
  [flows]="bash scripts/flows.sh"
  [schemathesis]="ST_MAX_TIME=60 timeout 200 bash scripts/schemathesis.sh"
  [kill-loop]="timeout 150 python3 scripts/kill-loop.py --cycles 3"
  [hostile]="timeout 300 python3 scripts/hostile.py --only 0,1"
  [sigterm]="timeout 120 python3 scripts/sigterm-drain.py --rounds 1"
  [instructions]="timeout 360 python3 scripts/bench/instructions.py --check"
  [cluster-sim]="timeout 240 python3 scripts/cluster-sim.py"
)
passed_wrongly=0
results=()
for gate in "${gates[@]}"; do
  command=${commands[$gate]:-}
  [ -n "$command" ] || { echo "unknown gate $gate (known: ${!commands[*]})" >&2; exit 2; }
  echo "== $gate against a server that refuses every write"
  log=$(mktemp)
  bash -c "$command" >"$log" 2>&1
  rc=$?
  tail -n 4 "$log" | sed 's/^/   | /'
  rm -f "$log"
  if [ "$rc" -eq 0 ]; then
    results+=("PASSED (wrongly)  $gate")
    passed_wrongly=$((passed_wrongly + 1))
  else
    results+=("failed as it must (exit $rc)  $gate")
  fi
done
echo "== gates against a server that refuses every write"
printf '%s\n' "${results[@]}"
[ "$passed_wrongly" -eq 0 ]
