#!/usr/bin/env python3
"""Throughput of `navsim explore` at 10,000 and 100,000 states, beside the cost of one apply
measured in the same run (docs/explore.md "Speed").

Generates a storyboard whose reachable states far outnumber the bounds (a tab bar of two
navigation controllers, each scene showing any of six scenes, so every tab's stack branches wide
and stays shallow),
runs `navsim explore --stats` with --max-states 10000 and then 100000, and prints one line per
run (states, seconds, states per second, one apply in microseconds) and the ratio of the two
rates, which docs/explore.md asks to stay at 0.7 or more (near linear growth).

    scripts/bench/explore.py [--navsim PATH] [--small N] [--large N]

Not a test: the figures depend on the machine. Nothing leaves the machine; no server runs.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

TABS = 2
BRANCHES = 6


def storyboard() -> str:
    scenes = []
    tab_segues = "".join(
        f'<segue destination="nav{t}" kind="relationship" relationship="viewControllers" id="tabs-{t}"/>' for t in range(TABS))
    scenes.append(
        f'<scene sceneID="tabs-scene"><objects><tabBarController id="tabs" sceneMemberID="viewController">'
        f'<connections>{tab_segues}</connections></tabBarController></objects></scene>')
    for t in range(TABS):
        scenes.append(
            f'<scene sceneID="nav{t}-scene"><objects><navigationController id="nav{t}" sceneMemberID="viewController">'
            f'<connections><segue destination="t{t}s0" kind="relationship" relationship="rootViewController" id="nav{t}-root"/>'
            f'</connections></navigationController></objects></scene>')
        for s in range(BRANCHES + 1):
            buttons = "".join(
                f'<button id="t{t}s{s}b{d}"><connections><segue destination="t{t}s{d}" kind="show" id="t{t}s{s}-to-{d}"/>'
                f'</connections></button>' for d in range(1, BRANCHES + 1))
            scenes.append(
                f'<scene sceneID="t{t}s{s}-scene"><objects><viewController id="t{t}s{s}" sceneMemberID="viewController">'
                f'<view key="view" id="t{t}s{s}-view"><subviews>{buttons}</subviews></view></viewController></objects></scene>')
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" '
        'targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" initialViewController="tabs">'
        f'<scenes>{"".join(scenes)}</scenes></document>\n')


def run(navsim: str, path: str, states: int) -> dict:
    done = subprocess.run(
        [navsim, "explore", "--stats", "--format", "json", "--max-states", str(states), "--max-depth", "1000", path],
        capture_output=True, text=True, timeout=3600)
    line = next((l for l in done.stderr.splitlines() if l.startswith("states=")), None)
    if line is None:
        sys.exit(f"explore.py: navsim explore printed no statistics (status {done.returncode}): {done.stderr.strip()}")
    return dict(re.findall(r"(\w+)=(\S+)", line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = ".build/release/navsim" if os.path.exists(".build/release/navsim") else ".build/debug/navsim"
    parser.add_argument("--navsim", default=os.environ.get("NAVSIM_BINARY", default))
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "Branching.storyboard")
        with open(path, "w") as f:
            f.write(storyboard())
        print(f"navsim: {args.navsim}")
        rates = []
        for states in (args.small, args.large):
            s = run(args.navsim, path, states)
            rate = float(s["states_per_second"])
            rates.append(rate)
            print(
                f"max-states {states:>7}: states {s['states']:>7}  transitions {s['transitions']:>8}  "
                f"seconds {float(s['seconds']):8.2f}  states/s {rate:9.0f}  one apply {float(s['apply_microseconds']):7.2f} us  "
                f"peak RSS {int(s.get('peak_rss_kib', 0)) / 1024:7.1f} MiB")
        ratio = rates[1] / rates[0] if rates[0] else 0
        print(f"states/s at {args.large} / at {args.small}: {ratio:.2f} (target >= 0.70)")


if __name__ == "__main__":
    main()
