#!/usr/bin/env bash
# Build each fixture Workflow with real xstate 5 and check its dumped state tree against
# expected/<name>.json (README.md); then the differential corpus: corpus/machines/ is still what
# corpus/gen.mjs writes, and each machine's dump is still corpus/expected/<name>.json
# (corpus/README.md). Needs Node 20+ and the npm registry. Names given: those fixtures only.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
status=0
node dump.mjs --check "$@" || status=1
if [ $# -eq 0 ]; then
  node corpus/gen.mjs --check || status=1
  node dump.mjs --corpus --check > out/corpus-check.log || { status=1; grep -v '^ok ' out/corpus-check.log; }
  tail -n 1 out/corpus-check.log
fi
exit $status
