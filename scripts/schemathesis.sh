#!/usr/bin/env bash
# schemathesis against the live release binary, from the repository's openapi.yaml: every check,
# every phase (examples, coverage, fuzzing, stateful — the stateful phase follows the `links` of
# openapi.yaml), a fixed seed so that a CI run can be replayed, and a time cap of its own.
# Fails on any 5xx, server crash, reply that violates openapi.yaml (ST1xx: status, content type,
# headers, schema), stateful failure (ST3xx: a deleted resource still there, a created one not
# found), authentication failure (ST4xx) or schemathesis error other than its own internal ones.
# A schema-invalid request that is accepted (ST201) fails too: the server took input it should
# have refused (a field it ignored, a value out of its range). A schema-valid request that is
# refused (ST202) is listed, not failed, by default: most such refusals depend on the session's
# state (an operation sent to a controller with no container of its kind), which no request schema
# can state; ST_STRICT=2 fails on them as well, ST_STRICT=0 only lists both.
#
#   scripts/schemathesis.sh            # expects .build/release/navsim; builds nothing
#
# The gate states what it must have checked and fails below it: at least ST_MIN_CASES test cases
# generated (default 2000), ST_MIN_REQUESTS requests served (default 2000) and ST_MIN_WRITES writes
# (POST, PUT, PATCH, DELETE) answered 2xx (default 50), so that a server refusing every write, or a
# run cut short, cannot pass. A run that timed out, or that ended without schemathesis' summary,
# fails whatever else it printed.
#
# Environment: ST_MAX_EXAMPLES (per operation and phase, default 40), ST_MAX_TIME (seconds,
# default 300), ST_SEED (default 9), ST_WORKERS (default 2), ST_STRICT (default 1: ST201 fails,
# ST202 is listed; 2: both fail; 0: both are listed), NAVSIM_BIN (the server to start, default
# .build/release/navsim). Requirements (pinned): scripts/security-requirements.txt, installed
# here when schemathesis is missing.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

binary=${NAVSIM_BIN:-.build/release/navsim}
[ -x "$binary" ] || { echo "no $binary: build it first (swift build -c release)" >&2; exit 2; }
if ! command -v st >/dev/null 2>&1; then
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
    -r scripts/security-requirements.txt
fi

work=$(mktemp -d /tmp/navsim-schemathesis.XXXXXX)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server runs as openapi.yaml describes it, with a bearer token: schemathesis sends it on every
# request, and its authentication checks (ST4xx) see that a request without it is refused.
token=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
NAVSIM_TOKEN="$token" NAVSIM_MIGRATIONS="$repo/migrations" NAVSIM_OPENAPI="$repo/openapi.yaml" \
  "$binary" --host 127.0.0.1 --port "$port" --db "$work/navsim.sqlite" >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
  python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/healthz', timeout=1)" 2>/dev/null && break  # /healthz needs no token
  kill -0 "$pid" 2>/dev/null || { echo "navsim exited at start:" >&2; cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done

max_time=${ST_MAX_TIME:-300}
echo "schemathesis $(st --version | awk '{print $NF}') against 127.0.0.1:$port, at most ${max_time}s"
status=0
# `timeout` is the hard cap around schemathesis' own --max-time (its shrinking can overrun).
# The stateful phase's scenarios: up to 12 linked calls (schemathesis' default is 6).
# A schema-valid request answered 412 is not spec drift: `If-Match` is well formed (the schema's
# pattern) but names another version than the session's, which no schema can state; 412 is the
# answer to a false precondition (RFC 9110 §13.1.1), as 404 and 409 answer state and are accepted
# by default. For the same reason a schema-invalid request may be answered 412 rather than 4xx for
# its body: preconditions are evaluated before the request content is processed (RFC 9110 §13.2.1),
# and 412 refuses the request, changing nothing, as the statuses schemathesis expects there do.
cat >"$work/schemathesis.toml" <<'TOML'
[phases.stateful]
max-steps = 12

[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "412", "415", "422", "428", "429", "5xx"]

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "412", "429", "5xx"]
TOML
# Run from $work: schemathesis keeps a cache of past failures (.schemathesis/) in the working
# directory and replays it first; every gate run starts without one and leaves none in the checkout.
(cd "$work" && timeout --signal=INT --kill-after=20 $((max_time + 60)) \
  st --config-file "$work/schemathesis.toml" run "$repo/openapi.yaml" --url "http://127.0.0.1:$port" \
    --checks all \
    --header "Authorization: Bearer $token" \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "${ST_MAX_EXAMPLES:-40}" \
    --max-time "$max_time" \
    --seed "${ST_SEED:-9}" \
    --workers "${ST_WORKERS:-2}" \
    --request-timeout 10 \
    --generation-database none \
    --suppress-health-check all \
    --no-color \
    --report junit --report-dir "$work/report") \
  | tee "$work/st.out" || status=$?

# schemathesis' own verdict, sorted into what fails the gate and what is reported.
verdict=$(python3 - "$work/st.out" "${ST_STRICT:-1}" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
strict = int(sys.argv[2])  # 0: list ST2xx; 1: ST201 fails, ST202 listed; 2: both fail
fails = lambda code: code[2] != "2" or (strict >= 1 and code == "ST201") or strict >= 2
section = lambda name: re.search(rf"^{name}:\n((?:  .*\n)+)", text, re.M)
failing, drift, tool = [], [], []
m = section("Failures")
for line in (m.group(1).splitlines() if m else []):
    c = re.search(r"(ST(\d)\d\d) (.*): (\d+)", line)
    if c:
        (failing if fails(c.group(1)) else drift).append(f"{c.group(1)} {c.group(3)}: {c.group(4)}")
m = section("Errors")
for line in (m.group(1).splitlines() if m else []):
    e = re.search(r"([A-Za-z][A-Za-z ]+): (\d+)", line)
    if e:
        (tool if e.group(1).strip() == "Runtime Error" else failing).append(f"{e.group(1).strip()}: {e.group(2)}")
cases = re.search(r"Test cases:\s*\n?\s*(\d+) generated", text)
print(f"cases={cases.group(1) if cases else 0}")
print(f"summary={'yes' if cases else 'no'}")
print("failing=" + "; ".join(failing))
print("drift=" + "; ".join(drift))
print("tool=" + "; ".join(tool))
PY
)
cases=$(sed -n 's/^cases=//p' <<<"$verdict")
summary=$(sed -n 's/^summary=//p' <<<"$verdict")
failing=$(sed -n 's/^failing=//p' <<<"$verdict")
drift=$(sed -n 's/^drift=//p' <<<"$verdict")
tool=$(sed -n 's/^tool=//p' <<<"$verdict")
if [ -n "$drift" ]; then echo "schemathesis: spec drift listed, not failing (ST_STRICT=${ST_STRICT:-1}): $drift"; fi
if [ -n "$tool" ]; then echo "schemathesis: errors inside schemathesis itself (not the server's; not failing): $tool"; fi
if [ -n "$failing" ]; then
  echo "schemathesis: failing: $failing"
  status=1
elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "schemathesis: timed out (exit $status): a run cut short has not checked what it must"
  status=1
elif [ "$summary" != yes ]; then
  echo "schemathesis: exit $status without its summary (interrupted or crashed)"
  status=1
elif [ "$status" -ne 0 ] && [ -z "$drift$tool" ]; then
  echo "schemathesis: exit $status with nothing listed to explain it"
  status=1
else
  status=0  # a nonzero exit here is wholly explained by the listed drift or schemathesis' own errors
fi

# The server logs one JSON object per request; count them, and those answered 5xx.
count_log() {
  python3 - "$work/server.log" "$1" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        entry = json.loads(line)
    except ValueError:
        continue
    status = entry.get("status") if isinstance(entry, dict) else None
    if not isinstance(status, int):
        continue
    kind = sys.argv[2]
    if (kind == "all" or kind == "5xx" and status >= 500
            or kind == "writes" and entry.get("method") in ("POST", "PUT", "PATCH", "DELETE") and 200 <= status < 300):
        n += 1
print(n)
PY
}
served=$(count_log all)
if ! kill -0 "$pid" 2>/dev/null; then
  echo "schemathesis: the server died during the run" >&2
  tail -20 "$work/server.log" >&2
  status=1
fi
fives=$(count_log 5xx)
writes=$(count_log writes)
[ "$fives" -eq 0 ] || status=1
min_cases=${ST_MIN_CASES:-2000} min_requests=${ST_MIN_REQUESTS:-2000} min_writes=${ST_MIN_WRITES:-50}
below=()
[ "${cases:-0}" -ge "$min_cases" ] || below+=("$cases test cases < $min_cases")
[ "$served" -ge "$min_requests" ] || below+=("$served requests served < $min_requests")
[ "$writes" -ge "$min_writes" ] || below+=("$writes writes answered 2xx < $min_writes")
if [ ${#below[@]} -gt 0 ]; then
  echo "schemathesis: below the gate's minimum: ${below[*]}"
  status=1
fi
echo "schemathesis: $cases test cases, $served requests served, $writes writes answered 2xx, $fives answered 5xx" \
  "(minimum $min_cases, $min_requests, $min_writes): $([ "$status" -eq 0 ] && echo ok || echo FAIL)"
if [ "$status" -ne 0 ]; then
  echo "server log tail:" >&2
  grep -E '"status":5[0-9][0-9]' "$work/server.log" | head -20 >&2 || true
fi
exit "$status"
