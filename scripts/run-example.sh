#!/usr/bin/env bash
# The main job on the bundled example Instance: the Chart door over its named Charts.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
cargo run --quiet --locked --release --bin jr2 -- check examples/notes --lends examples/notes/lends.json "$@"
