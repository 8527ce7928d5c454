#!/usr/bin/env bash
# The function-heavy machine's benchmark (docs/benchmarks.md): xstate's todomvc `todosMachine`
# (bench/runtime/todos.ts) over the engines bench's script of EVENTS events
# (bench/engines/xstate-todos.mjs --gen), its functions lowered or run in the runtime's JavaScript
# engine, against xstate 5 running the same functions; in-process on both sides and as whole
# processes (`jr2 sim --final` against `node xstate-todos.mjs --once`), in one run.
# usage: bench/todos.sh [EVENTS=100000]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
todos_n="${1:-100000}"
out=bench/out/runtime
mkdir -p "$out"
cargo build --quiet --locked --release --bin jr2
cargo bench --quiet --locked -p runtime --bench events --no-run 2>/dev/null
ms() { date +%s%N; }

# The todomvc machine. Both sides draw Math.random from mulberry32 seeded with what jr2 seeds a run
# of the session "jr2" with (FNV-1a of "jr2"), so the todo ids, the script's and the ends agree.
export JR2_TODOS_SEED=2681016957
(cd bench/engines && npm ci --silent --no-audit --no-fund >/dev/null)
node bench/engines/xstate-todos.mjs --gen "$todos_n" > "$out/todos.jsonl" 2>/dev/null
"$CARGO_TARGET_DIR/release/jr2" ir bench/runtime/todos.ts > "$out/todos.ir.json"
rust=$(cargo bench --quiet --locked -p runtime --bench events -- "$PWD/$out/todos.ir.json" "@$PWD/$out/todos.jsonl" "$todos_n" 3)
js=$(node bench/engines/xstate-todos.mjs "$out/todos.jsonl" 3)
jr2_ms=999999; node_ms=999999
for round in 1 2 3; do
  t0=$(ms); "$CARGO_TARGET_DIR/release/jr2" sim bench/runtime/todos.ts --events "$out/todos.jsonl" --final > "$out/todos.jr2.txt"; t1=$(ms)
  jr2_ms=$(( (t1 - t0) / 1000000 < jr2_ms ? (t1 - t0) / 1000000 : jr2_ms ))
  t0=$(ms); node bench/engines/xstate-todos.mjs "$out/todos.jsonl" --once > "$out/todos.node.txt"; t1=$(ms)
  node_ms=$(( (t1 - t0) / 1000000 < node_ms ? (t1 - t0) / 1000000 : node_ms ))
done
echo "todos: in-process jr2 $rust"
echo "todos: in-process xstate $js"
echo "todos: whole process: jr2 sim --final ${jr2_ms} ms, node + xstate ${node_ms} ms; xstate ends $(cat "$out/todos.node.txt")"
node -e '
  const [r, j, jm, nm] = [JSON.parse(process.argv[1]), JSON.parse(process.argv[2]), Number(process.argv[3]), Number(process.argv[4])];
  const same = r.fnv1a === j.fnv1a ? "the same context" : `DIFFERENT contexts (${r.fnv1a} against ${j.fnv1a})`;
  console.log(`todos: in-process jr2 over xstate: ${(r.events_per_second / (j.events / j.seconds)).toFixed(2)}x by the wall clock, ${(r.events_per_cpu_second / (j.events / j.cpu_seconds)).toFixed(2)}x by CPU time; whole process (wall): ${(nm / jm).toFixed(2)}x; both end with ${same}`);
' "$rust" "$js" "$jr2_ms" "$node_ms"
