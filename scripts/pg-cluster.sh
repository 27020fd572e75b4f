#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store suite (Tests/StoreTests) and CI.
#
#   scripts/pg-cluster.sh start [DIR]   initdb in DIR (default: a new temp directory), start the
#                                       server on a free port of 127.0.0.1 with its unix socket in
#                                       DIR, fsync and synchronous_commit on; prints two lines:
#                                       DIR, then the libpq URL for NAVSIM_TEST_POSTGRES
#   scripts/pg-cluster.sh stop DIR      stop that server (fast shutdown) and remove DIR
#
# PostgreSQL refuses to run as root, so under root (CI) the cluster belongs to the `postgres`
# user that Debian's package creates (scripts/install-cluster-prereqs.sh). Authentication is
# `trust`, which is fine only because the server listens on loopback and lives for one run.
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -x "$bindir/initdb" ] || { echo "pg-cluster: no initdb under /usr/lib/postgresql/*/bin (run scripts/install-cluster-prereqs.sh)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    # Under root the cluster's owner must reach the directory: /tmp, not a private $TMPDIR.
    base=${TMPDIR:-/tmp}
    [ "$(id -u)" -eq 0 ] && base=/tmp
    dir=${2:-$(mktemp -d "$base/navsim-pg.XXXXXX")}
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C --no-instructions >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=on -c synchronous_commit=on -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "$dir"
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=${2:?usage: pg-cluster.sh stop DIR}
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null || true
    fi
    case "$dir" in
      */navsim-pg.*|*/pg-cluster*) rm -rf "$dir" ;;
      *) echo "pg-cluster: left $dir in place (not a directory this script made)" >&2 ;;
    esac
    ;;
  *)
    echo "usage: $0 start [DIR] | stop DIR" >&2
    exit 2
    ;;
esac
