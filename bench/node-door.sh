#!/usr/bin/env bash
# The door in Node (docs/benchmarks.md): the npm package's admitChart over the 2 000 generated
# Charts of bench/chart-door.sh against ajv validating them against the grammar, in one Node
# process (bench/node-door.mjs). Builds the Node addon (release) with npm/build.mjs.
# usage: bench/node-door.sh [N=2000] [STATES=60] [ROUNDS=7]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
n="${1:-2000}"; states="${2:-60}"; rounds="${3:-7}"
out=bench/out/charts
(cd bench && npm install --silent --no-audit --no-fund >/dev/null)
if [ "$(ls "$out" 2>/dev/null | wc -l)" != "$n" ]; then
  rm -rf "$out"
  node bench/gen-charts.mjs "$out" "$n" "$states"
fi
(cd npm && npm ci --silent --no-audit --no-fund --loglevel=error)
node npm/build.mjs --release 2>/dev/null
node bench/node-door.mjs "$PWD/npm/linux-x64-gnu/jr2c.linux-x64-gnu.node" "$out" bench/lends.json "$rounds"
