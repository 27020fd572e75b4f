#!/usr/bin/env bash
# Plays the repository's flows (Tests/Flows) over real HTTP against the release binary, the
# way users run navsim. Builds nothing: run `swift build -c release` first.
#
#   scripts/flows.sh [JUNIT_FILE] [FLOW_OR_FOLDER...]
#
# Starts .build/release/navsim on a free 127.0.0.1 port (the server picks it: --port 0) with a
# database in a temporary folder, waits until GET /healthz answers 200, runs
# `navsim test --base URL --junit JUNIT_FILE` on the flows, stops the server and exits with the
# test's status. JUNIT_FILE defaults to .build/flows-junit.xml. NAVSIM_TOKEN, when set, reaches
# both the server and the test.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
binary=${NAVSIM_BIN:-.build/release/navsim}
junit=${1:-.build/flows-junit.xml}
shift $(( $# > 0 ? 1 : 0 ))
flows=("$@")
[ ${#flows[@]} -gt 0 ] || flows=(Tests/Flows)
[ -x "$binary" ] || { echo "flows.sh: no $binary; run swift build -c release first" >&2; exit 2; }

scratch=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT

NAVSIM_MIGRATIONS=${NAVSIM_MIGRATIONS:-$repo/migrations} \
  "$binary" serve --host 127.0.0.1 --port 0 --db "$scratch/navsim.sqlite" 2>"$scratch/server.log" &
server=$!

# The server logs {"message":"listening","url":"http://127.0.0.1:PORT",…} once the port is open.
base=""
for _ in $(seq 1 300); do
  kill -0 "$server" 2>/dev/null || { echo "flows.sh: navsim exited early:" >&2; cat "$scratch/server.log" >&2; exit 2; }
  base=$(sed -n 's/.*"message":"listening".*"url":"\(http:\/\/[^"]*\)".*/\1/p' "$scratch/server.log" | head -n 1)
  [ -n "$base" ] && break
  sleep 0.1
done
[ -n "$base" ] || { echo "flows.sh: navsim did not start listening within 30 s" >&2; exit 2; }
port=${base##*:}

# GET /healthz over bash's /dev/tcp: no curl needed on a bare machine.
healthy=""
for _ in $(seq 1 100); do
  if exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
    printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
    status=$(head -n 1 <&3 || true)
    exec 3<&- 3>&-
    case "$status" in "HTTP/1.1 200"*) healthy=yes; break ;; esac
  fi
  sleep 0.1
done
[ -n "$healthy" ] || { echo "flows.sh: GET $base/healthz did not answer 200" >&2; exit 2; }

mkdir -p "$(dirname "$junit")"
echo "navsim test --base $base --junit $junit ${flows[*]}"
status=0
# Its last line, "N passed, N failed", stays this script's last line (scripts/test.sh quotes it).
"$binary" test --base "$base" --junit "$junit" "${flows[@]}" || status=$?
exit $status
