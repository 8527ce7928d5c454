#!/usr/bin/env bash
# The durable host's benchmark (docs/benchmarks.md, issue 35): a durable macrostep through the host
# against a bare SQLite commit with the same settings (WAL, synchronous=FULL); the restore of
# 10 000 live runs; 32 concurrent tasks starting runs and sending events, with and without group
# commit. One run of host/benches/durable.rs, its databases on the target's disk; it prints the
# machine's load average before and after.
# usage: bench/durable.sh [N=300]   (N macrosteps; the load starts 32 x max(N/4, 32) runs)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
n="${1:-300}"
cargo bench --quiet --locked -p host --bench durable -- "$n"
