#!/usr/bin/env bash
# Mutation check: applies one named mutation to a copy of the repository, runs the tests that
# guard it there and says whether a test failed (killed) or not (survived). The core's rules are
# mutated, and so are the guarantees around them: a stored row dropped, a write acknowledged
# whatever its commit did, a precondition ignored.
#
#   scripts/mutate.sh            every mutation below
#   scripts/mutate.sh r43 r49    the named ones
#   scripts/mutate.sh --service  the ones beyond the core (.ci/run runs these and two of the core's)
#   scripts/mutate.sh --list
#
# First the unmutated copy is built and the tests of every selected mutation run on it: they must
# pass, or a mutant "killed" by an already failing test would prove nothing (exit 2).
# The copy lives in ${NAVSIM_MUTATE_DIR:-/tmp/navsim-mutate} (sources re-copied each run, build
# folder kept, so only the first run builds from scratch). The working tree is never touched.
# Exit status: 0 when every mutation was killed, 1 when one survived, 2 on a usage or build error
# or a failing baseline.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${NAVSIM_MUTATE_DIR:-/tmp/navsim-mutate}"
core=NavigationCoreTests

# name # file # sed expression # what it breaks [# test filter, default the core tests]
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
  "r24-container-view#Sources/NavigationCore/Presentation.swift#s/containerView: removes ? \\[p, shown\\] : \\[shown\\]/containerView: [shown]/#R24: a presentation that removes the presenter's view leaves it out of the transition's container view"
  "r42-chain-top-dismissing#Sources/NavigationCore/Dismissal.swift#s/if top != chain\\[0\\] { self\\[changing: top\\].isBeingDismissed = true }//#R42: the top of a dismissed chain is not marked isBeingDismissed"
  "r150-replacement-forgets-original#Sources/NavigationCore/AdaptiveReplacement.swift#s/record.adaptiveOriginal = v/record.adaptiveOriginal = nil/#R150/R151: the replacement's record does not remember the presented controller, so it is never given back#AdaptiveReplacementTests"
  "r152-passthrough-subviews#Sources/NavigationCore/Popovers.swift#s/state.ancestors(tapped).contains(where: views.contains)/views.contains(tapped)/#R152: a tap on a view inside a passthrough view dismisses the popover#PopoverTapTests"
  "r111-drag-keeps-detent#Sources/NavigationCore/Sheets.swift#s/self\\[changing: v\\].sheetPresentationController = changed/_ = changed/#R111: a drag tells the delegate but the sheet keeps its old selected detent#SheetDetentTests"
  "r112-undimmed-inclusive#Sources/NavigationCore/Sheets.swift#s/return resting > undimmed/return resting >= undimmed/#R112: the largest undimmed detent itself dims the presenter#SheetDetentTests"
  # Beyond the core: what the service and its stores promise a client.
  "store-history-row-dropped#Sources/SessionStorage/StoreRows.swift#s/try write(sql.insertHistory, entry.parameters(session: id))/_ = entry/#a turn's history row is never stored (the session row and controllers are)#StoreTests|NavSimServiceTests"
  "store-controller-row-dropped#Sources/SessionStorage/StoreRows.swift#s/try write(sql.upsertController, controller.parameters(session: id))/_ = controller/#a changed controller's row is never stored#StoreTests|NavSimServiceTests"
  "ack-whatever-the-commit-did#Sources/SessionStorage/GroupCommit.swift#s/batch\\[i\\].completion(results\\[i\\])/batch[i].completion(.success(()))/#a write is acknowledged before, and whether or not, its commit is durable#StoreTests|NavSimServiceTests"
  "if-match-ignored#Sources/NavSimService/HTTP/Preconditions.swift#s/if !tags.matchesAny, !tags.strong.contains(current) { throw/if false { throw/#If-Match naming another version no longer refuses a write (RFC 9110 §13.1.1)#SchemaAgreementTests|ReleaseRouteTests|StrictHTTPTests"
)
# .ci/run's selection with --service: every mutation beyond the core, and two of the core's.
service_selection=(store-history-row-dropped store-controller-row-dropped ack-whatever-the-commit-did if-match-ignored r30 r49)

if [[ "${1:-}" == "--list" ]]; then
  for m in "${mutations[@]}"; do IFS="#" read -r name _ _ what filter <<<"$m"; echo "$name  $what  [${filter:-$core}]"; done
  exit 0
fi

selected=("$@")
if [[ "${1:-}" == "--service" ]]; then selected=("${service_selection[@]}"); fi

# name → its filter, for the selected mutations (all when none is named).
names=() filters=()
for m in "${mutations[@]}"; do
  IFS='#' read -r name _ _ _ filter <<<"$m"
  if ((${#selected[@]})) && [[ ! " ${selected[*]} " == *" $name "* ]]; then continue; fi
  names+=("$name") filters+=("${filter:-$core}")
done
for name in "${selected[@]}"; do
  [[ " ${names[*]} " == *" $name "* ]] || { echo "no mutation named $name (scripts/mutate.sh --list)" >&2; exit 2; }
done

copy_sources() {
  # The sources as they are now, without the repository's own build folder, and nothing else:
  # a file the repository no longer has must not linger in the copy (the build folder is apart).
  rm -rf "$work/src"
  mkdir -p "$work/src"
  (cd "$repo" && tar --exclude=./.build --exclude=./.git -cf - .) | (cd "$work/src" && tar -xf -)
}
build() { (cd "$work/src" && swift build --build-tests --scratch-path "$work/build" >"$1" 2>&1); }
# A mutant can make a test wait for a reply that never comes: after ${NAVSIM_MUTATE_TEST_SECONDS:-900} s
# the run is stopped, and a mutant stopped so is killed (its tests could never pass), said as such.
run_tests() {
  (cd "$work/src" && NAVSIM_MIGRATIONS="$work/src/migrations" \
     timeout --kill-after=10 "${NAVSIM_MUTATE_TEST_SECONDS:-900}" \
     swift test --skip-build --disable-xctest --scratch-path "$work/build" --filter "$1" >>"$2" 2>&1)
}

# The baseline: the unmutated copy passes every filter the mutations use.
baseline_filter=$(printf '%s\n' "${filters[@]}" | tr '|' '\n' | sort -u | paste -sd '|' -)
copy_sources
log="$work/baseline.log"
build "$log" || { echo "baseline: the unmutated copy does not build (see $log)" >&2; exit 2; }
if ! run_tests "$baseline_filter" "$log"; then
  echo "baseline: the unmutated copy fails its tests ($baseline_filter; see $log): no mutant can be judged" >&2
  exit 2
fi
echo "baseline: unmutated, $(grep -cE '^✔ Test .* passed after' "$log" || true) tests of $baseline_filter pass"

survived=0
for m in "${mutations[@]}"; do
  IFS='#' read -r name file expr what filter <<<"$m"
  [[ " ${names[*]} " == *" $name "* ]] || continue
  filter=${filter:-$core}
  copy_sources
  before="$(cksum <"$work/src/$file")"
  sed -i -e "$expr" "$work/src/$file"
  if [[ "$(cksum <"$work/src/$file")" == "$before" ]]; then
    echo "$name: the mutation no longer applies to $file (update scripts/mutate.sh)" >&2
    exit 2
  fi
  log="$work/$name.log"
  if ! build "$log"; then
    echo "$name: the mutant does not build (see $log)" >&2
    exit 2
  fi
  status=0
  run_tests "$filter" "$log" || status=$?
  if [ "$status" -eq 0 ]; then
    echo "$name: SURVIVED  ($what)"
    survived=1
  elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "$name: killed, its tests stopped after ${NAVSIM_MUTATE_TEST_SECONDS:-900} s  ($what)"
  else
    failing="$(grep '^✘ Test .* failed after' "$log" | grep -vc '^✘ Test run' || true)"
    if [ "$failing" -gt 0 ]; then
      echo "$name: killed by $failing test(s) of $filter  ($what)"
    else
      echo "$name: killed, the tests of $filter crashed (see $log)  ($what)"
    fi
  fi
done
# Leave the copy unmutated for the next run's incremental build.
copy_sources
exit "$survived"
