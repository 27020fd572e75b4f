#!/usr/bin/env bash
# The repository's shape (docs/architecture.md): no target under Sources/ holds more than 30 % of
# the lines of all Sources/**/*.swift, and no .swift file under Sources/ or Tests/ is over 600
# lines, so that a module keeps one job and a file one subject. Prints the largest targets'
# shares either way, and each file over the limit as path: lines.
set -euo pipefail
cd "$(dirname "$0")/.."

max_share=30
max_lines=600
found=0

total=0
declare -A target_lines
while IFS= read -r -d '' file; do
    lines=$(wc -l < "$file")
    total=$((total + lines))
    target=${file#Sources/}
    target=${target%%/*}
    target_lines[$target]=$(( ${target_lines[$target]:-0} + lines ))
done < <(find Sources -name '*.swift' -print0)

if [ "$total" -eq 0 ]; then
    echo "lint-shape: no Swift files under Sources/" >&2
    exit 1
fi

echo "lint-shape: $total lines in Sources/**/*.swift; the largest targets:"
# Tenths of a percent in integer arithmetic, so that 30.04 % is not rounded down to 30 %.
while read -r lines target; do
    tenths=$(( lines * 1000 / total ))
    printf '  %-20s %6d lines  %3d.%d %%\n' "$target" "$lines" $((tenths / 10)) $((tenths % 10))
done < <(for t in "${!target_lines[@]}"; do echo "${target_lines[$t]} $t"; done | sort -rn | head -n 5)

for t in "${!target_lines[@]}"; do
    lines=${target_lines[$t]}
    if [ $(( lines * 100 )) -gt $(( max_share * total )) ]; then
        echo "lint-shape: target $t holds more than $max_share % of Sources ($lines of $total lines)" >&2
        found=1
    fi
done

while IFS= read -r -d '' file; do
    lines=$(wc -l < "$file")
    if [ "$lines" -gt "$max_lines" ]; then
        echo "lint-shape: $file: $lines lines (more than $max_lines)" >&2
        found=1
    fi
done < <(find Sources Tests -name '*.swift' -print0 | sort -z)

if [ "$found" -ne 0 ]; then
    exit 1
fi
echo "lint-shape: ok"
