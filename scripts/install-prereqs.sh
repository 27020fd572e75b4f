#!/usr/bin/env bash
# Installs the Debian packages navsim builds against (Package.swift's system-library targets),
# and only those that are missing, so that it is cheap to call before every build.
set -euo pipefail

# Other scripts pass the Debian packages of their own tools as arguments (install-inspector-prereqs.sh).
packages=(libmicrohttpd-dev libsqlite3-dev libpq-dev libxml2-dev pkg-config "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
