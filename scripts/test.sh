#!/usr/bin/env bash
# The tests: every crate's, in the target folder the other scripts build in (so a clone builds
# once). CI runs this with JR2_SLOW=1, which adds the slow property runs and huge inputs.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
exec cargo test --locked --workspace "$@"
