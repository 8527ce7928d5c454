#!/usr/bin/env bash
# The Chart door benchmark (docs/benchmarks.md): 2 000 generated Charts of ~60 states,
# `jr2 check --lends` against ajv validating the same Charts against grammar/chart.schema.json in
# one Node process, and the door in-process against plain serde_json parsing, all in one run.
# usage: bench/chart-door.sh [N=2000] [STATES=60]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
n="${1:-2000}"; states="${2:-60}"
out=bench/out/charts
rm -rf "$out"
(cd bench && npm install --silent --no-audit --no-fund >/dev/null)
node bench/gen-charts.mjs "$out" "$n" "$states"
cargo build --quiet --locked --release --bin jr2
cargo bench --quiet --locked -p check --bench door --bench door_mimalloc --no-run 2>/dev/null

ms() { date +%s%N; }
# Whole processes, best of 3 each, alternating.
jr2_ms=999999; ajv_ms=999999
for round in 1 2 3; do
  t0=$(ms); "$CARGO_TARGET_DIR/release/jr2" check "$out" --lends bench/lends.json --format json > bench/out/jr2.json || true; t1=$(ms)
  jr2_ms=$(( (t1 - t0) / 1000000 < jr2_ms ? (t1 - t0) / 1000000 : jr2_ms ))
  t0=$(ms); ajv=$(node bench/ajv-validate.mjs grammar/chart.schema.json "$out"); t1=$(ms)
  ajv_ms=$(( (t1 - t0) / 1000000 < ajv_ms ? (t1 - t0) / 1000000 : ajv_ms ))
done
inproc=$(cargo bench --quiet --locked -p check --bench door -- "$PWD/$out" "$PWD/bench/lends.json" 7)
inproc_mi=$(cargo bench --quiet --locked -p check --bench door_mimalloc -- "$PWD/$out" "$PWD/bench/lends.json" 7)
errors=$(node -e 'const r=JSON.parse(require("fs").readFileSync("bench/out/jr2.json","utf8")); console.log(r.summary.errors)')

echo "charts: $n of ~$states states; jr2 errors: $errors"
echo "jr2 check --lends (whole process, wall, best of 3): ${jr2_ms} ms"
echo "ajv grammar only (whole node process, wall, best of 3): ${ajv_ms} ms   $ajv"
echo "in-process: $inproc"
echo "in-process: $inproc_mi"
node -e '
const [jr2, ajv] = [Number(process.argv[1]), Number(process.argv[2])];
const r = JSON.parse(process.argv[3]);
console.log(`door throughput over ajv (wall, whole processes): ${(ajv / jr2).toFixed(2)}x`);
console.log(`door time over serde_json parsing (in-process): ${r.door_over_serde_json.toFixed(2)}x`);
' "$jr2_ms" "$ajv_ms" "$inproc"
