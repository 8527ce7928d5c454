#!/usr/bin/env bash
# The interpreter's benchmark (docs/benchmarks.md): events per second through the runtime's core
# against xstate 5's actor.send on the same machines (a flat toggle; a parallel machine with nested
# states and assign), in-process on both sides and as whole processes (`jr2 sim --final` over
# 200 000 events against a Node script that sends the same events), all in one run; and the toggle
# as an SCXML document (bench/runtime/toggle.scxml, through the SCXML front end: `jr2 ir` for the
# in-process side), against xstate running toggle.json. The function-heavy machine has its own
# script, bench/todos.sh.
# usage: bench/runtime.sh [EVENTS=200000]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
n="${1:-200000}"
out=bench/out/runtime
mkdir -p "$out"
(cd tests/xstate && npm ci --silent --no-audit --no-fund >/dev/null)
cargo build --quiet --locked --release --bin jr2
cargo bench --quiet --locked -p runtime --bench events --no-run 2>/dev/null
# xstate-events.mjs imports xstate from tests/xstate's install: run it from there.
cp bench/runtime/xstate-events.mjs tests/xstate/out-bench-xstate-events.mjs
trap 'rm -f tests/xstate/out-bench-xstate-events.mjs' EXIT

ms() { date +%s%N; }
for case in "toggle t toggle.json" "parallel t,u parallel.json" "toggle-scxml t toggle.scxml"; do
  set -- $case
  name=$1; types=$2
  # jr2 runs `chart` (in-process: its IR where it is a document), xstate the Chart JSON.
  chart=bench/runtime/$3
  xchart=bench/runtime/${name%-scxml}.json
  bchart=$chart
  if [[ $chart == *.scxml ]]; then
    bchart=$out/$name.ir.json
    "$CARGO_TARGET_DIR/release/jr2" ir "$chart" > "$bchart"
  fi
  node -e '
    const [n, types] = [Number(process.argv[1]), process.argv[2].split(",")];
    const out = [];
    for (let i = 0; i < n; i++) out.push(JSON.stringify({ type: types[i % types.length], n: i }));
    process.stdout.write(out.join("\n") + "\n");' "$n" "$types" > "$out/$name.jsonl"
  rust=$(cargo bench --quiet --locked -p runtime --bench events -- "$PWD/$bchart" "$types" "$n" 5)
  js=$(node tests/xstate/out-bench-xstate-events.mjs "$PWD/$xchart" "$types" "$n" 5)
  # Whole processes, best of 3 each, alternating.
  jr2_ms=999999; node_ms=999999
  for round in 1 2 3; do
    t0=$(ms); "$CARGO_TARGET_DIR/release/jr2" sim "$chart" --events "$out/$name.jsonl" --final > "$out/$name.jr2.txt"; t1=$(ms)
    jr2_ms=$(( (t1 - t0) / 1000000 < jr2_ms ? (t1 - t0) / 1000000 : jr2_ms ))
    t0=$(ms); node tests/xstate/out-bench-xstate-events.mjs "$PWD/$xchart" --script "$out/$name.jsonl" > "$out/$name.node.txt"; t1=$(ms)
    node_ms=$(( (t1 - t0) / 1000000 < node_ms ? (t1 - t0) / 1000000 : node_ms ))
  done
  echo "$name: in-process jr2 $rust"
  echo "$name: in-process xstate $js"
  echo "$name: whole process: jr2 sim --final ${jr2_ms} ms, node + xstate ${node_ms} ms"
  echo "$name: jr2 ends $(node -e 'const l=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(JSON.stringify(l.configuration))' "$out/$name.jr2.txt"), xstate ends $(node -e 'const l=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(JSON.stringify(l.configuration))' "$out/$name.node.txt")"
  node -e '
    const [r, j, jm, nm] = [JSON.parse(process.argv[1]), JSON.parse(process.argv[2]), Number(process.argv[3]), Number(process.argv[4])];
    console.log(`'"$name"': in-process jr2 over xstate: ${(r.events_per_second / j.events_per_second).toFixed(2)}x by the wall clock, ${(r.events_per_cpu_second / j.events_per_cpu_second).toFixed(2)}x by CPU time; whole process (wall): ${(nm / jm).toFixed(2)}x`);
  ' "$rust" "$js" "$jr2_ms" "$node_ms"
done
