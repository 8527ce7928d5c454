#!/usr/bin/env bash
# The W3C / SCION SCXML conformance cases through jr2 (run.mjs says how a case passes).
#
#   tests/scxml/run.sh [--check] [--bless] [--doc docs/conformance.md] [--only GROUP] [--jr2 PATH]
#
# Installs @scion-scxml/test-framework (pinned by package-lock.json) with `npm ci`, builds jr2
# unless --jr2 names one, and runs every case. --check compares with the committed pass list
# (passing.txt) and fails when a listed case no longer passes (CI runs this); --bless rewrites
# the list; --doc writes the per-group table and the skipped cases.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jr2=""
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jr2) jr2="$2"; shift 2 ;;
    --check) pass+=(--check "$here/passing.txt"); shift ;;
    --bless) pass+=(--bless "$here/passing.txt"); shift ;;
    --doc) pass+=(--doc "$2"); shift 2 ;;
    *) pass+=("$1"); shift ;;
  esac
done
if [ ! -d "$here/node_modules/@scion-scxml/test-framework" ]; then
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
fi
if [ -z "$jr2" ]; then
  (cd "$root" && cargo build --quiet --bin jr2)
  jr2="${CARGO_TARGET_DIR:-$root/target}/debug/jr2"
fi
exec node "$here/run.mjs" --jr2 "$jr2" "${pass[@]}"
