#!/usr/bin/env bash
# Writes docs/pictures/<name>.png: `jr2 graph --format svg` of each Workflow of the example
# Instance and of each of its named Charts (<wrapper>-<chart>.png), rendered by rsvg-convert.
# Needs Graphviz's `dot` and librsvg's `rsvg-convert` (apt-get install graphviz librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
if [[ -z "${JR2:-}" ]]; then
  cargo build --quiet --locked --bin jr2
  JR2="$CARGO_TARGET_DIR/debug/jr2"
fi
mkdir -p docs/pictures
picture() { # NAME FILE
  "$JR2" graph "$2" --format svg | rsvg-convert --format png --zoom 1.25 --background-color white -o "docs/pictures/$1.png"
  echo "docs/pictures/$1.png"
}
for f in examples/instance/workflows/*.ts; do
  picture "$(basename "$f" .ts)" "$f"
done
for f in examples/instance/workflows/*/*.json; do
  picture "$(basename "$(dirname "$f")")-$(basename "$f" .json)" "$f"
done
