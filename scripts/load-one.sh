#!/usr/bin/env bash
# One `majiang serve` process under the load example, on SQLite or on a throw-away PostgreSQL
# cluster: the server pinned to SERVER_CPUS (default 0: one core), the load clients (and
# PostgreSQL) to LOAD_CPUS (default 1), MATCHES concurrent four-person matches of HANDS hands,
# each client thinking THINK_MS on average before an action (0: at once). Prints the load
# example's report: tables in play at once, actions/s, ack p50/p90/p99; then the server's CPU
# time over the whole run (user + system, from /proc: divided by the actions acked, the
# server's work per action). LOAD_ARGS: more arguments for the load example (e.g. --whole).
#   bash scripts/load-one.sh sqlite|postgres [MATCHES=400] [HANDS=1] [THINK_MS=0]
# Needs a release build: cargo build --release -p majiang-cli --bin majiang && cargo build --release -p majiang-server --example load
# (BIN and LOAD name other binaries, e.g. a build of an older commit).
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:?sqlite or postgres}; matches=${2:-400}; hands=${3:-1}; think=${4:-0}
bin=${BIN:-target/release/majiang}; load=${LOAD:-target/release/examples/load}
server_cpus=${SERVER_CPUS:-0}; load_cpus=${LOAD_CPUS:-1}
dir=$(mktemp -d /tmp/majiang-loadone-XXXXXX)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
as_pg=(); pgbin=""; server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -n "$pgbin" ]; then
    (cd "$dir" && "${as_pg[@]}" "$pgbin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1) || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
case "$engine" in
  sqlite) db="$dir/load.sqlite" ;;
  postgres)
    pgbin=$(ls -d /usr/lib/postgresql/*/bin | tail -1)
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; as_pg=(runuser -u postgres --); fi
    pgport=$(free_port)
    (cd "$dir" && "${as_pg[@]}" "$pgbin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null)
    (cd "$dir" && taskset -c "$load_cpus" "${as_pg[@]}" "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w \
      -o "-p $pgport -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null)
    db="postgres://postgres@127.0.0.1:$pgport/postgres" ;;
  *) echo "engine: sqlite or postgres" >&2; exit 2 ;;
esac
port=$(free_port)
# Limits raised for one client address opening every table.
MAJIANG_MAX_ROOMS=100000 MAJIANG_ROOMS_PER_MINUTE=100000 MAJIANG_ROOMS_PER_MINUTE_TOTAL=100000 \
MAJIANG_MAX_CONNECTIONS=100000 MAJIANG_MAX_CONNECTIONS_PER_ADDRESS=100000 RUST_LOG=warn \
  taskset -c "$server_cpus" "$bin" serve --addr "127.0.0.1:$port" --db "$db" \
  >"$dir/server.log" 2>&1 &
server=$!
until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.1; done
echo "$engine, server on cpu $server_cpus, clients on cpu $load_cpus, $("$bin" --version 2>/dev/null || echo "$bin")"
# shellcheck disable=SC2086 # LOAD_ARGS: words for the load example
taskset -c "$load_cpus" "$load" "$matches" "$hands" --node "http://127.0.0.1:$port" --think "$think" ${LOAD_ARGS:-}
# Fields 14 and 15 of /proc/PID/stat (utime, stime) in clock ticks, counted after "(comm) ".
read -r -a stat < <(sed 's/^.*) //' "/proc/$server/stat")
echo "server CPU: $(( (stat[11] + stat[12]) * 1000 / $(getconf CLK_TCK) )) ms (user + system)"
