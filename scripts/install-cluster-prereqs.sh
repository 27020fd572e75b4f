#!/usr/bin/env bash
# Debian packages for the multi-instance checks only (.ci/run): the PostgreSQL server that
# scripts/pg-cluster.sh starts a throwaway cluster of, and HAProxy for deploy/haproxy.cfg.
# Neither is needed to build navsim or to pass README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's postgresql package creates and starts a "main" cluster on port 5432 when it is
# installed; the checks use their own throwaway cluster, so ask for none (postgresql-common
# reads this file before it creates one).
if ! dpkg -s postgresql-common >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  mkdir -p /etc/postgresql-common
  [ -f /etc/postgresql-common/createcluster.conf ] || echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
fi
scripts/install-prereqs.sh postgresql haproxy
