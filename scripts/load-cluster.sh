#!/usr/bin/env bash
# The load example against PROCESSES `majiang serve` processes on one throw-away PostgreSQL
# cluster: initdb into a temporary folder (as the postgres user when run as root), the servers
# on free ports as nodes of one cluster, MATCHES concurrent matches of HANDS hands spread over
# them, then everything stopped and removed.
#   bash scripts/load-cluster.sh [PROCESSES=2] [MATCHES=400] [HANDS=1]
# Needs a release build: cargo build --release -p majiang-cli --bin majiang && cargo build --release -p majiang-server --example load
set -euo pipefail
cd "$(dirname "$0")/.."
procs=${1:-2}; matches=${2:-400}; hands=${3:-1}
bin=$(ls -d /usr/lib/postgresql/*/bin | tail -1)
dir=$(mktemp -d /tmp/majiang-loadpg-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; as_pg=(runuser -u postgres --); fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
pids=()
cleanup() {
  # The servers first (a clean stop gives their leases up), then the database.
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  (cd "$dir" && "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1) || true
  rm -rf "$dir"
}
trap cleanup EXIT
(cd "$dir" && "${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >/dev/null)
(cd "$dir" && "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null)
db="postgres://postgres@127.0.0.1:$port/postgres"
nodes=()
for _ in $(seq "$procs"); do
  p=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  RUST_LOG=warn target/release/majiang serve --addr "127.0.0.1:$p" --db "$db" \
    --node-url "http://127.0.0.1:$p" >/dev/null &
  pids+=($!)
  nodes+=(--node "http://127.0.0.1:$p")
  until curl -sf "http://127.0.0.1:$p/healthz" >/dev/null; do sleep 0.1; done
done
target/release/examples/load "$matches" "$hands" "${nodes[@]}"
