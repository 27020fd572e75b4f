#!/usr/bin/env bash
# Plays the coverage fixtures (Tests/Fixtures/Coverage) with `navsim test --coverage`, and checks
# the three reports (docs/flows.md "Coverage"): the Cobertura XML against coverage-04.dtd with
# xmllint (no network), the SARIF against the SARIF 2.1.0 schema in Tests/Schemas/sarif, and the
# JSON's counts of the fixture's segues. Exits non-zero when any of them is wrong.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

scripts/install-prereqs.sh libxml2-utils
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
NAVSIM_MIGRATIONS=$repo/migrations "$navsim" test --coverage "$out/coverage.json" \
  --coverage-cobertura "$out/coverage.xml" --coverage-sarif "$out/coverage.sarif" Tests/Fixtures/Coverage/flows

# Without the report's DOCTYPE, which names the DTD's public address: libxml2 would try to fetch it.
sed '/^<!DOCTYPE coverage /d' "$out/coverage.xml" >"$out/coverage-local.xml"
xmllint --noout --nonet --dtdvalid Tests/Schemas/cobertura/coverage-04.dtd "$out/coverage-local.xml"
echo "lint-coverage: the Cobertura report is valid against coverage-04.dtd"

python3 - "$out" Tests/Schemas/sarif/sarif-schema-2.1.0.json <<'PY'
import json, sys
import jsonschema

out, schema_path = sys.argv[1], sys.argv[2]
sarif = json.load(open(out + "/coverage.sarif"))
schema = json.load(open(schema_path))
validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
errors = sorted(validator.iter_errors(sarif), key=lambda e: list(e.absolute_path))
for error in errors[:20]:
    print("lint-coverage: %s: %s" % ("/".join(map(str, error.absolute_path)) or "<root>", error.message), file=sys.stderr)
if errors:
    sys.exit(1)
uncovered = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in sarif["runs"][0]["results"]]

report = json.load(open(out + "/coverage.json"))
mail = report["storyboards"][0]
lines = {}
for number, text in enumerate(open(mail["file"]), start=1):
    for part in text.split():
        if part.startswith('id="'):
            lines.setdefault(part[4:].split('"')[0], number)
want_uncovered = [lines[i] for i in ("inbox-help", "inbox-quick", "message-unwind")]
problems = []
if (mail["segues"]["total"], mail["segues"]["performed"]) != (7, 4):
    problems.append("segues %s of %s, expected 4 of 7" % (mail["segues"]["performed"], mail["segues"]["total"]))
if [s["line"] for s in mail["segues"]["uncovered"]] != want_uncovered:
    problems.append("uncovered lines %s, expected %s" % ([s["line"] for s in mail["segues"]["uncovered"]], want_uncovered))
if uncovered != want_uncovered:
    problems.append("SARIF lines %s, expected %s" % (uncovered, want_uncovered))
for p in problems:
    print("lint-coverage: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print("lint-coverage: valid SARIF 2.1.0 with %d uncovered segues; JSON: %d of %d segues performed"
      % (len(uncovered), mail["segues"]["performed"], mail["segues"]["total"]))
PY
