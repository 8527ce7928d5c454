#!/usr/bin/env bash
# Build each fixture Workflow with real xstate 5 and check its dumped state tree against
# expected/<name>.json (README.md). Needs Node 20+ and the npm registry.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node dump.mjs --check "$@"
