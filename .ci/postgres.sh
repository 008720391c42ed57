# Sourced by .ci/run: a throw-away PostgreSQL cluster for the tests.
#
# start_postgres installs PostgreSQL from the distribution's packages when it
# is missing (as root, with apt-get), makes a cluster in a temporary folder,
# starts it on 127.0.0.1 on a free port and exports JUDGE_TEST_POSTGRES (a
# postgresql:// URL) for the tests marked postgres; stop_postgres stops it and
# removes the folder. PostgreSQL refuses to run as root: as root the cluster
# belongs to the "postgres" user of the distribution's package.

pg_bindir() {
  local dir=""
  if command -v pg_config >/dev/null 2>&1; then
    dir="$(pg_config --bindir)"
  fi
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    # Debian keeps the server's programs beside the version, not on PATH.
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  fi
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

pg_as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_postgres() {
  local bindir
  bindir="$(pg_bindir || true)"
  if [ -z "$bindir" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      postgresql >/dev/null 2>&1 || true
    bindir="$(pg_bindir || true)"
  fi
  if [ -z "$bindir" ]; then
    echo "!! PostgreSQL could not be installed (apt-get install postgresql failed)" >&2
    return 1
  fi
  PG_DIR="$(mktemp -d)"
  chmod 755 "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  pg_as_owner "$bindir/initdb" -D "$PG_DIR/data" -U judge --auth=trust -E UTF8 \
    --locale=C.UTF-8 >/dev/null
  pg_as_owner "$bindir/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$PG_DIR \
        -c fsync=off -c max_connections=200" start >/dev/null
  PG_BINDIR="$bindir"
  export JUDGE_TEST_POSTGRES="postgresql://judge@127.0.0.1:$port/postgres"
  # pg_dump and pg_restore of the same version, for `judge backup`.
  export PATH="$PATH:$bindir"
  echo "== PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
}

stop_postgres() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
    pg_as_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
