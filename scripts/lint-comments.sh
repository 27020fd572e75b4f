#!/usr/bin/env bash
# Comments point only at what a reader can open: files in this repository (docs/…), RFCs and
# Apple's documentation. This fails on a comment in Sources, Tests, scripts/*.sh, .ci/run or the
# Dockerfile, or a line of scripts/*.py, that names an issue number, a file that is not in the repository (ENGINEERING.md,
# API.md for docs/api.md, ARCHITECTURE.md for docs/architecture.md), or a per-machine figure
# (callgrind counts, "~6 µs", "measured: …"), which belong in docs/benchmarks.md. Prints each offending
# line as file:line: text.
set -euo pipefail
cd "$(dirname "$0")/.."

names='[Ii]ssue #?[0-9]|ENGINEERING\.md|(^|[^/])API\.md|ARCHITECTURE\.md|callgrind([^_]|$)|~[0-9][0-9.,]* ?(µs|ms|instructions)|measured:'
found=0

# Swift: the text after `//` (line and doc comments).
while IFS= read -r hit; do
    echo "$hit"
    found=1
done < <(grep -rnE --include='*.swift' "//.*($names)" Sources Tests || true)

# Shell, the CI script and the Dockerfile: lines whose first non-blank character is `#`.
while IFS= read -r hit; do
    echo "$hit"
    found=1
done < <(grep -nE "^[[:space:]]*#.*($names)" scripts/*.sh .ci/run Dockerfile /dev/null | grep -v "^scripts/lint-comments.sh:" || true)

# Python: every line, docstrings included (lint-docs.py spells the names it looks for).
while IFS= read -r hit; do
    echo "$hit"
    found=1
done < <(grep -nE "$names" scripts/*.py /dev/null | grep -v "^scripts/lint-docs.py:" || true)

if [ "$found" -ne 0 ]; then
    echo "lint-comments: the comments above cite an issue, a file not in this repository, or a per-machine figure" >&2
    exit 1
fi
echo "lint-comments: ok"
