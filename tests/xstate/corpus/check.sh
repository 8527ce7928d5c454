#!/usr/bin/env bash
# Issue 18's second must-show, surveyed: run `jr2 check` on every corpus machine (all of them valid
# xstate v5, each built by real xstate: expected/) and list the errors it gives, grouped by rule,
# with the machines. An error here is either a jr2 authoring rule an xstate Machine may break (the
# seeds': a Workflow exports `machine`, Parts are slots, the walk's refusals) or a defect.
#
#   bash tests/xstate/corpus/check.sh [JR2]     JR2 defaults to `jr2` on PATH
#
# Prints `<rule>: <n> machines: <names>` a line, then each distinct message of the rule with one
# machine that has it. Exits 0: it surveys, the Rust test (xstate_corpus.rs) is the gate.
set -euo pipefail
cd "$(dirname "$0")"
jr2="${1:-jr2}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
"$jr2" check --format github machines/*.ts > "$out" 2>&1 || true
errors="$(grep '^::error ' "$out" || true)"
total="$(ls machines/*.ts | wc -l)"
with="$(printf '%s\n' "$errors" | sed -n 's/^::error file=machines\/\([^,]*\)\.ts,.*/\1/p' | sort -u | wc -l)"
echo "jr2 check: $total machines, $with with an error"
[ -z "$errors" ] && exit 0
printf '%s\n' "$errors" |
  sed -n 's/^::error file=machines\/\([^,]*\)\.ts,.*title=\([^:]*\)::\(.*\)$/\2\t\1\t\3/p' |
  awk -F'\t' '
    { if (!seen[$1 FS $2]++) { n[$1]++; names[$1] = names[$1] " " $2 } }
    { m = $3; gsub(/"[^"]*"/, "\"…\"", m); if (!msg[$1 FS m]++) { first[$1] = first[$1] "\x1f    " m "  (" $2 ")" } }
    END { for (r in n) printf "%s: %d machines:%s%s\n", r, n[r], names[r], first[r] }
  ' | sort | tr '\037' '\n'
