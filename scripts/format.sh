#!/usr/bin/env bash
# The code's layout, by the toolchain's `swift format` and the configuration checked in at
# .swift-format (4 spaces, lines up to 180 columns, existing line breaks kept; rules that fight
# the house style, such as `;` between short statements on one line, are off).
#   scripts/format.sh           formats Sources, Tests, Plugins and Package.swift in place
#   scripts/format.sh --check   changes nothing; prints every finding and exits 1 if there is one
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Sources Tests Plugins Package.swift)
case "${1:-}" in
    --check)
        # --strict turns warnings into errors, so any finding fails the check.
        swift format lint --strict --recursive --parallel "${paths[@]}"
        echo "format: clean"
        ;;
    "")
        swift format format --in-place --recursive --parallel "${paths[@]}"
        ;;
    *)
        echo "usage: scripts/format.sh [--check]" >&2
        exit 2
        ;;
esac
