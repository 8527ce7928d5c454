#!/usr/bin/env bash
# Renders every Mermaid picture `jr2 graph` draws of the example Instance (each Workflow, each named
# Chart) and of tests/fixtures/graph/ (with the --state subtrees the snapshot test draws) with
# mermaid from npm in Debian's headless Chromium (playwright-core); fails on any parse or render
# error. Needs Node 20+, the npm registry (or a filled npm cache) and /usr/bin/chromium
# (apt-get install chromium). JR2=path/to/jr2 uses that binary instead of a debug build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"
if [[ -z "${JR2:-}" ]]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
  cargo build --quiet --locked --bin jr2
  JR2="$CARGO_TARGET_DIR/debug/jr2"
fi
out="$here/out"
rm -rf "$out"
mkdir -p "$out"
draw() { # NAME FILE [--state PATH]
  local name="$1" file="$2"
  shift 2
  "$JR2" graph "$file" --format mermaid "$@" >"$out/$name.mmd"
}
for f in examples/instance/workflows/*.ts; do
  draw "$(basename "$f" .ts)" "$f"
done
for f in examples/instance/workflows/*/*.json; do
  draw "$(basename "$(dirname "$f")")-$(basename "$f" .json)" "$f"
done
for f in tests/fixtures/graph/*.ts; do
  draw "$(basename "$f" .ts)" "$f"
done
draw nested-at-making tests/fixtures/graph/nested.ts --state work.making
draw triage-at-triaging examples/instance/workflows/triage.ts --state triaging
cd "$here"
npm ci --no-audit --no-fund --silent
node render.mjs "$out"/*.mmd
