#!/usr/bin/env bash
# The Machine front end benchmark (docs/benchmarks.md): N generated Workflows of ~150 lines,
# our front end (parse and lower; and `compile_text`: parse, evaluate, zod, lower, the walk) against bare oxc parsing of the same
# files, in one process, interleaved rounds, best of ROUNDS.
# usage: bench/machines.sh [N=1000] [ROUNDS=7]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
n="${1:-1000}"; rounds="${2:-7}"
out=bench/out/workflows
rm -rf "$out"
node bench/gen-workflows.mjs "$out" "$n"
cargo bench --quiet --locked -p check --bench machines --bench machines_mimalloc --no-run 2>/dev/null
# One thread, pinned to one core where `taskset` is there (no migration between cores in a
# round: steadier minima on a shared machine; both sides of the ratio run on that core).
pin=(); command -v taskset >/dev/null && pin=(taskset -c "$(($(nproc) - 1))")
bin() { ls -t "$CARGO_TARGET_DIR"/release/deps/"$1"-* | grep -v '\.d$' | head -1; }
sys=$("${pin[@]}" "$(bin machines)" "$PWD/$out" "$rounds")
mi=$("${pin[@]}" "$(bin machines_mimalloc)" "$PWD/$out" "$rounds")
echo "in-process: $sys"
echo "in-process: $mi"
node -e '
let bad = false;
for (const arg of process.argv.slice(1)) {
  const r = JSON.parse(arg);
  console.log(`${r.allocator}: ${r.files} Workflows (${Math.round(r.lines / r.files)} lines each), files with errors: ${r.files_with_errors}, warnings: ${r.warnings}`);
  console.log(`  bare oxc parsing ${r.oxc_parse_ms} ms, evaluate_text ${r.evaluate_ms} ms, parse+lower ${r.lower_ms} ms, compile_text ${r.compile_ms} ms`);
  console.log(`  parse and lower over bare oxc parsing: ${r.lower_over_oxc.toFixed(2)}x (issue 3 target: within 2x)`);
  console.log(`  (bare oxc with the parse options of the front end, no parens nodes and no ident hashes: ${r.oxc_tuned_parse_ms} ms; parse and lower over it: ${r.lower_over_oxc_tuned.toFixed(2)}x)`);
  console.log(`  whole front end (with the walk) over bare oxc parsing: ${r.compile_over_oxc.toFixed(2)}x`);
  bad ||= r.files_with_errors > 0;
}
process.exit(bad ? 1 : 0);
' "$sys" "$mi"
