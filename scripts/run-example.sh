#!/usr/bin/env bash
# The main job on the bundled example Instance: `jr2 check` over its Workflows, its named Charts
# (each against its wrapper's Open body) and its dispatches. A first build (release, with LTO)
# takes some minutes, with cargo's progress on stderr; later runs start at once.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
cargo build --locked --release --bin jr2
exec "$CARGO_TARGET_DIR/release/jr2" check examples/instance "$@"
