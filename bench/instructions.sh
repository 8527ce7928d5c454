#!/usr/bin/env bash
# Instructions, not seconds: two `jr2` binaries on the same generated inputs under valgrind
# (`--tool=cachegrind --cache-sim=no`: the count of instructions executed, the same on every run
# of the same binary and input whatever else the machine does), for a change whose cost must be
# measured on a busy or noisy machine. Each run is pinned to one core, so the check runs on one
# thread and the count is deterministic.
#
#   bench/instructions.sh OLD_JR2 NEW_JR2 [WORKFLOWS=100] [CHARTS=200]
#
# Runs (each whole process): `jr2 check` of a generated Instance of WORKFLOWS Workflows (the
# Machine front end, the walk, the Instance check), and `jr2 check --lends` of CHARTS generated
# Charts of ~60 states (the door). Prints each count and NEW/OLD.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1"); new=$(realpath "$2"); n="${3:-100}"; charts="${4:-200}"
out=bench/out/instructions
rm -rf "$out"; mkdir -p "$out"
node bench/gen-workflows.mjs "$out/instance/workflows" "$n" >/dev/null 2>&1
node bench/gen-charts.mjs "$out/charts" "$charts" 60 >/dev/null 2>&1
count() { # BIN ARGS... -> instructions of the whole process
  local f; f=$(mktemp)
  taskset -c 0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" >/dev/null 2>"$f" || true
  grep -oE 'I *refs: *[0-9,]+' "$f" | grep -oE '[0-9,]+$' | tr -d ,
  rm -f "$f"
}
report() { # NAME ARGS...
  local name=$1; shift
  local a b; a=$(count "$old" "$@"); b=$(count "$new" "$@")
  node -e 'const [n, a, b] = process.argv.slice(1); console.log(`${n.padEnd(34)} old ${Number(a).toLocaleString("en")}  new ${Number(b).toLocaleString("en")}  new/old ${(b / a).toFixed(4)}`)' "$name" "$a" "$b"
}
report "jr2 check, $n Workflows" check "$out/instance"
report "jr2 check --lends, $charts Charts" check "$out/charts" --lends bench/lends.json --format json
