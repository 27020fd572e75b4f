#!/usr/bin/env bash
# Mutation check for the core's rules: applies one named mutation to a copy of the repository,
# runs the core tests there and says whether a test failed (killed) or not (survived).
#
#   scripts/mutate.sh            every mutation below
#   scripts/mutate.sh r43 r49    the named ones
#   scripts/mutate.sh --list
#
# The copy lives in ${NAVSIM_MUTATE_DIR:-/tmp/navsim-mutate} (sources re-copied each run, build
# folder kept, so only the first run builds from scratch). The working tree is never touched.
# Exit status: 0 when every mutation was killed, 1 when one survived, 2 on a usage or build error.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${NAVSIM_MUTATE_DIR:-/tmp/navsim-mutate}"

# name # file # sed expression # what it breaks
mutations=(
  "r43#Sources/NavigationCore/Dismissal.swift#s/presentation?.state != .presented }/presentation?.state == nil }/#R43: dismiss while a chain member is still being presented or dismissed"
  "r49#Sources/NavigationCore/Dismissal.swift#s/if vc.isModalInPresentation {/if false {/#R49: isModalInPresentation blocks a user dismissal"
  "r21#Sources/NavigationCore/Presentation.swift#s/where state.c(a).definesPresentationContext/where false/#R21: context styles walk to definesPresentationContext"
  "r30#Sources/NavigationCore/Navigator.swift#s/engine.state = snapshot/_ = snapshot/#R30: a refused call changes nothing"
  "r88#Sources/NavigationCore/Model.swift#s/horizontalSizeClass == .regular ? 8 : 5/horizontalSizeClass == .regular ? 8 : 6/#R88: five tabs before More on a phone"
  "r78-moving-from-parent#Sources/NavigationCore/NavigationController.swift#s/self\\[changing: id\\].isMovingFromParent = true/_ = id/#R78/R73: popped controllers are not marked isMovingFromParent while the pop runs"
  "r42-chain-dismissing-state#Sources/NavigationCore/Dismissal.swift#s/for id in chain {/for id in chain.suffix(1) {/#R42: only the top of a dismissed chain has its record marked dismissing"
  # Mutations below change only state that no event shows: the exhaustive tests (send { … }) kill them.
  "r53-popover-anchor#Sources/NavigationCore/Presentation.swift#s/popover: popover, state: .presenting)/popover: nil, state: .presenting)/#R53: a popover's presentation record loses its anchor"
  "transition-counter#Sources/NavigationCore/Transitions.swift#s/if reported { state.nextTransitionNumber += 1 }/if reported { state.nextTransitionNumber += 2 }/#transition ids skip a number (the counter is state a replay must reproduce)"
  "r24-container-view#Sources/NavigationCore/Presentation.swift#s/containerView: removes ? \\[p, v\\] : \\[v\\]/containerView: [v]/#R24: a presentation that removes the presenter's view leaves it out of the transition's container view"
  "r42-chain-top-dismissing#Sources/NavigationCore/Dismissal.swift#s/if top != chain\\[0\\] { self\\[changing: top\\].isBeingDismissed = true }//#R42: the top of a dismissed chain is not marked isBeingDismissed"
)

if [[ "${1:-}" == "--list" ]]; then
  for m in "${mutations[@]}"; do IFS='#' read -r name _ _ what <<<"$m"; echo "$name  $what"; done
  exit 0
fi

selected=("$@")
survived=0
for m in "${mutations[@]}"; do
  IFS='#' read -r name file expr what <<<"$m"
  if ((${#selected[@]})) && [[ ! " ${selected[*]} " == *" $name "* ]]; then continue; fi
  mkdir -p "$work/src"
  # The sources as they are now, without the repository's own build folder.
  (cd "$repo" && tar --exclude=./.build --exclude=./.git -cf - .) | (cd "$work/src" && tar -xf -)
  before="$(cksum <"$work/src/$file")"
  sed -i -e "$expr" "$work/src/$file"
  if [[ "$(cksum <"$work/src/$file")" == "$before" ]]; then
    echo "$name: the mutation no longer applies to $file (update scripts/mutate.sh)" >&2
    exit 2
  fi
  log="$work/$name.log"
  if ! (cd "$work/src" && swift build --build-tests --scratch-path "$work/build" >"$log" 2>&1); then
    echo "$name: the mutant does not build (see $log)" >&2
    exit 2
  fi
  if (cd "$work/src" && NAVSIM_MIGRATIONS="$work/src/migrations" \
        swift test --skip-build --scratch-path "$work/build" --filter NavigationCoreTests >>"$log" 2>&1); then
    echo "$name: SURVIVED  ($what)"
    survived=1
  else
    failing="$(grep '^✘ Test .* failed after' "$log" | grep -vc '^✘ Test run' || true)"
    echo "$name: killed by $failing test(s)  ($what)"
  fi
done
# Leave the copy unmutated for the next run's incremental build.
exit "$survived"
