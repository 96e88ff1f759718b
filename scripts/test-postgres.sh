#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: Debian's postgresql package (installed when
# missing), a cluster made by initdb in DIR, listening on a Unix socket in DIR only (no TCP port,
# so parallel runs cannot collide), with fsync on as in production.
#   scripts/test-postgres.sh start DIR [PID]
#                                        prints the server's connection URL (also in DIR/url); with
#                                        PID, the server also stops (and DIR goes) once that
#                                        process has ended, however it ended
#   scripts/test-postgres.sh stop DIR    stops it and removes DIR
#   scripts/test-postgres.sh stop-server DIR / start-server DIR
#                                        stop it and start it again on the same data (fault tests)
# Run as root, the server runs as the `postgres` user the package creates (initdb refuses root).
set -euo pipefail
usage="usage: test-postgres.sh start|stop|stop-server|start-server DIR"
cmd=${1:?$usage}
dir=${2:?$usage}
dir=${dir%/}
here=$(cd "$(dirname "$0")" && pwd)

bin=""
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && bin=$d; done
if [ -z "$bin" ] && [ "$cmd" != stop ]; then
  "$here/install-deps.sh" postgresql >&2
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && bin=$d; done
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_server() {
  # -w waits until it accepts connections; the log stays in DIR for a failing test to show.
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=200 -c fsync=on" \
    start >/dev/null
}

case $cmd in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" = 0 ]; then
      chown postgres: "$dir"
      runuser -u postgres -- test -w "$dir" ||
        { echo "test-postgres.sh: the postgres user cannot reach $dir (a folder of root's on the way?); use one such as /tmp/NAME" >&2; exit 1; }
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U cantonlite -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    start_server || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h "$dir" -U cantonlite cantonlite
    # A URL libpq reads: the socket's folder is the host, percent-encoded.
    url="postgresql://cantonlite@$(python3 -c 'import sys,urllib.parse;print(urllib.parse.quote(sys.argv[1],safe=""))' "$dir")/cantonlite"
    echo "$url" >"$dir/url"
    if [ -n "${3:-}" ]; then
      # A watcher of its own session, out of the caller's pipes: the test that crashed or was
      # killed leaves no server behind.
      setsid bash -c 'while kill -0 "$1" 2>/dev/null && [ -d "$2/data" ]; do sleep 1; done; exec "$0" stop "$2"' \
        "$here/test-postgres.sh" "$3" "$dir" </dev/null >/dev/null 2>&1 &
    fi
    echo "$url"
    ;;
  stop-server)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  start-server)
    start_server
    ;;
  stop)
    [ -d "$dir/data" ] && [ -n "$bin" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
