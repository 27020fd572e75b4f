#!/usr/bin/env bash
# What scripts/bench.sh needs beside the build: wrk (the load generator) and a C compiler for the
# two anchors (raw libmicrohttpd, naive SQLite writer), all from Debian; and valgrind, which counts
# instructions for scripts/bench/instructions.py (CI's instruction gate). Installs only what is
# missing; as root or through sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-prereqs.sh wrk gcc libc6-dev valgrind
