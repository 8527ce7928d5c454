#!/usr/bin/env bash
# Runs two `jr2` binaries over every fixture and the example Instance, in every output format, and
# compares what they print (stdout, stderr, exit code) byte for byte. For a change that must not
# change any diagnostic (a refactoring): build the commit before it, keep its binary, then
#   scripts/compare-diagnostics.sh OLD_JR2 NEW_JR2
# Exit 0 when every output is the same; otherwise the differing cases and exit 1.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$(realpath "$1"); new=$(realpath "$2")
out=$(mktemp -d)
cases=()
add() { cases+=("$*"); }
for f in human json sarif github; do
  add check --format "$f" examples/instance
  for d in compiler/check/tests/fixtures/*/* tests/fixtures/* tests/xstate/fixtures lsp/tests/fixtures/*; do
    [ -d "$d" ] || continue
    add check --offline --format "$f" "$d"
  done
  for d in compiler/check/tests/fixtures/instance/*/* compiler/check/tests/fixtures/preflight/*/*; do
    [ -d "$d" ] && add check --offline --format "$f" "$d"
  done
  for d in compiler/check/tests/fixtures/preflight/*/* tests/fixtures/up-broken examples/instance; do
    [ -d "$d" ] && add up --check --offline --format "$f" "$d"
  done
done
while IFS= read -r -d '' f; do add ir "$f"; done < <(find compiler/check/tests/fixtures tests/xstate/fixtures examples -name '*.ts' -print0 | sort -z)
run() { # bin label
  local i=0
  for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    (cd . && timeout 60 "$1" $c >"$out/$2.$i.out" 2>"$out/$2.$i.err"; echo "exit $?" >>"$out/$2.$i.err")
    i=$((i + 1))
  done
}
run "$old" old
run "$new" new
bad=0; i=0
for c in "${cases[@]}"; do
  if ! cmp -s "$out/old.$i.out" "$out/new.$i.out" || ! cmp -s "$out/old.$i.err" "$out/new.$i.err"; then
    echo "differs: jr2 $c"; bad=$((bad + 1))
  fi
  i=$((i + 1))
done
echo "compared ${#cases[@]} runs: $bad differ"
rm -rf "$out"
[ "$bad" = 0 ]
