#!/usr/bin/env bash
# What the inspector's browser test needs beside the build: Graphviz (SVG pictures), Debian's
# chromium and chromium-driver (headless browser), and selenium from PyPI. Installs only what
# is missing; as root or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(graphviz chromium chromium-driver)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
python3 -c 'import selenium' 2>/dev/null || PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q \
  --disable-pip-version-check -r scripts/inspector-requirements.txt
