#!/usr/bin/env bash
# The crash soak (issue 35, tests/soak/main.rs): RUNS runs of a Workflow with a command, a timer,
# an http Effect to a local server and a Gate, on the real `jr2 serve`, SIGKILLed at KILLS random
# moments and restarted each time on the same database; each Gate answered through the API. It
# fails unless every run ends `done`, no Effect ran twice, every timer fired once; its last line
# is the report (`soak: {...}`: kills, Effects settled `unknown`, counts). CI runs the same test
# once (JR2_SLOW=1 in scripts/test.sh). A debug build by default; RELEASE=1 builds release.
# usage: bench/soak.sh [RUNS=100] [KILLS=20]   (JR2_SOAK_SEED=N replays a soak's random moments)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
export JR2_SOAK=1 JR2_SOAK_RUNS="${1:-100}" JR2_SOAK_KILLS="${2:-20}"
mkdir -p bench/out
profile=()
[[ "${RELEASE:-}" == 1 ]] && profile=(--release)
start=$(date +%s)
cargo test --quiet --locked "${profile[@]}" --test soak 2>&1 | tee bench/out/soak.txt
echo "soak: $(( $(date +%s) - start )) s in all" | tee -a bench/out/soak.txt
