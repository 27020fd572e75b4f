#!/usr/bin/env bash
# What the inspector's browser test needs beside the build: Graphviz (SVG pictures), Debian's
# chromium and chromium-driver (headless browser), and selenium from PyPI. Installs only what
# is missing; as root or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-prereqs.sh graphviz chromium chromium-driver
python3 -c 'import selenium' 2>/dev/null || PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q \
  --disable-pip-version-check -r scripts/inspector-requirements.txt
