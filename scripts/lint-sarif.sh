#!/usr/bin/env bash
# Runs `navsim lint --format sarif` over the storyboard fixtures and validates the output against
# the SARIF 2.1.0 JSON schema shipped in Tests/Schemas/sarif (docs/lint.md). Exits non-zero when
# the output is not valid SARIF; lint findings themselves do not fail this check.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

if ! python3 -c 'import jsonschema' 2>/dev/null; then
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
    -r scripts/lint-requirements.txt
fi

navsim=${NAVSIM_BIN:-.build/release/navsim}
if [ ! -x "$navsim" ]; then
  swift build -c release --product navsim >/dev/null
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
"$navsim" lint --format sarif Tests/Fixtures/Storyboards >"$out/fixtures.sarif" || status=$?
if [ "$status" -gt 1 ]; then
  echo "lint-sarif: navsim lint exited $status" >&2
  exit 1
fi
# navsim explore writes lint's SARIF too (docs/explore.md); its fixture has one finding of each kind.
status=0
"$navsim" explore --format sarif Tests/Fixtures/Explore/Defects.storyboard >"$out/explore.sarif" || status=$?
if [ "$status" -gt 1 ]; then
  echo "lint-sarif: navsim explore exited $status" >&2
  exit 1
fi

for report in "$out/fixtures.sarif" "$out/explore.sarif"; do
python3 - "$report" Tests/Schemas/sarif/sarif-schema-2.1.0.json <<'PY'
import json, sys
import jsonschema

report = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
for error in errors[:20]:
    print("lint-sarif: %s: %s" % ("/".join(map(str, error.absolute_path)) or "<root>", error.message), file=sys.stderr)
if errors:
    sys.exit(1)
results = sum(len(run.get("results", [])) for run in report["runs"])
print("lint-sarif: valid SARIF 2.1.0, %d results over %d artifacts" % (results, len(report["runs"][0].get("artifacts", []))))
PY
done
