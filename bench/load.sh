#!/usr/bin/env bash
# The HTTP API under load (issue 35, "Load"; docs/benchmarks.md): a `jr2 serve` of
# bench/load/instance on loopback (a store in a fresh folder), and STARTS run starts then READS
# status reads from CLIENTS concurrent clients (bench/load/load.mjs, Node's fetch with keep-alive),
# then every run started read back. Prints the client's JSON line; fails on any error or lost run.
# usage: bench/load.sh [STARTS=1000] [READS=10000] [CLIENTS=32]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
starts="${1:-1000}"; reads="${2:-10000}"; clients="${3:-32}"
cargo build --quiet --locked --release --bin jr2
jr2="$CARGO_TARGET_DIR/release/jr2"
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r bench/load/instance "$work/instance"
export JR2_TOKEN="load-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
"$jr2" serve "$work/instance" --listen 127.0.0.1:0 --offline > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 1 300); do
  grep -q 'listening on' "$work/out" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
  sleep 0.1
done
url="$(sed -n 's/^jr2 serve: listening on //p' "$work/out")"
[ -n "$url" ] || { echo "bench/load.sh: jr2 serve did not say where it listens" >&2; cat "$work/err" >&2; exit 1; }
echo "load: jr2 serve at $url, load average $(cut -d' ' -f1-3 /proc/loadavg)"
node bench/load/load.mjs "$url" "$JR2_TOKEN" wait '{"n":1}' "$starts" "$reads" "$clients"
