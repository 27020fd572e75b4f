#!/usr/bin/env bash
# Names the core declares once. UIKit's `isModalInPresentation` is spelled only where the API, the
# XML or the rule needs it (at most 5 files of Sources; elsewhere the core's field table or a key
# path stands for it), and NavigationCore passes no operation name as a string literal: an
# operation is a case of an enumeration (TransitionOperation, or the call a refusal names).
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
files=$(grep -rl isModalInPresentation Sources | sort)
count=$(printf '%s\n' "$files" | grep -c . || true)
if [ "$count" -gt 5 ]; then
    echo "isModalInPresentation is named in $count files of Sources (at most 5):" >&2
    printf '  %s\n' $files >&2
    status=1
fi
if grep -rnE 'operation: *"' Sources/NavigationCore; then
    echo "NavigationCore passes an operation name as a string (above): use the enumeration's case" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "lint-names: ok"
exit "$status"
