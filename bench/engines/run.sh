#!/usr/bin/env bash
# Issue 34's engine choice: rquickjs against boa_engine on xstate's todomvc machine, against
# xstate 5 in Node, in one run. Builds (release), makes the event script, prints one report.
#
#   bench/engines/run.sh [EVENTS] [ROUNDS]     default 100000 events, best of 3 rounds
#
# Its own cargo workspace (bench/engines/Cargo.toml), so CI never builds boa.
set -euo pipefail
cd "$(dirname "$0")"
events=${1:-100000}
rounds=${2:-3}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
npm ci --silent --no-audit --no-fund >/dev/null
nice -n 10 cargo build --release --locked --quiet
mkdir -p out
node xstate-todos.mjs --gen "$events" >out/events.jsonl 2>out/events.summary
echo "# bench/engines/run.sh $events $rounds, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
echo "# script: $(cat out/events.summary)"
echo "# node $(node --version), xstate $(node -p 'require("./node_modules/xstate/package.json").version')"
echo "# $(grep -A1 -E '^name = "(rquickjs|boa_engine)"$' Cargo.lock | paste - - - | awk '{print $3, $6}' | tr -d '"' | paste -sd, -)"
for b in size_none size_quickjs size_boa; do strip -o "out/$b" "$CARGO_TARGET_DIR/release/$b"; done
size() { stat -c%s "out/$1"; }
echo "# stripped release binary: serde_json only $(size size_none) B; +rquickjs $(( $(size size_quickjs) - $(size size_none) )) B; +boa_engine $(( $(size size_boa) - $(size size_none) )) B"
"$CARGO_TARGET_DIR/release/jr2-bench-engines" bench out/events.jsonl "$rounds"
