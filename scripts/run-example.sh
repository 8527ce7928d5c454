#!/usr/bin/env bash
# The main job on the bundled example Instance: `jr2 check` over its Workflows, its named Charts
# (each against its wrapper's Open body) and its dispatches.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
cargo run --quiet --locked --release --bin jr2 -- check examples/instance "$@"
