#!/usr/bin/env bash
# The fuzz targets (issue 16), each run for a bounded time with libFuzzer: no crash, no input
# that takes over 10 s, none past 2 GB. docs/fuzzing.md says what each target reads.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     default: 20 s, every target
#
# JR2_FUZZ_JOBS=2 runs two targets at a time (default 1: one after another); JR2_FUZZ_NICE=19
# runs them niced. Stable Rust runs cargo-fuzz with RUSTC_BOOTSTRAP=1 (it asks for nightly
# flags). Without a sanitizer (`-s none`): the crates are safe Rust, and what is looked for is a
# panic, a stack overflow, a hang or a blow-up, which libFuzzer catches itself; with debug
# assertions (`-a`), so an arithmetic overflow is a panic as in the tests. A crash's input is
# written to tests/fuzz/artifacts/<target>/ and the script fails.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(door machine lends compat lsp_framing)
jobs=${JR2_FUZZ_JOBS:-1}
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${JR2_FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}-fuzz}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
python3 seed.py
build=(--fuzz-dir . -s none -a)
nice -n "${JR2_FUZZ_NICE:-0}" cargo fuzz build "${build[@]}"

# The longest input each target is given: the largest seed (a 136 KB bench Chart for `door`, a
# few KB elsewhere) with room to grow; the generators need a few hundred bytes of choices.
max_len() {
  case $1 in
    door) echo 262144 ;;
    lsp_framing) echo 65536 ;;
    *) echo 16384 ;;
  esac
}

run() {
  local t=$1
  # The log is beside the artifacts, not among them: cargo-fuzz takes the newest file of
  # artifacts/<target>/ for the failing input.
  mkdir -p "artifacts/$t" logs
  local log="logs/$t.log" status=0 started=$SECONDS
  echo "fuzz: $t for ${secs}s ($(ls "corpus/$t" | wc -l) inputs in its corpus)"
  nice -n "${JR2_FUZZ_NICE:-0}" cargo fuzz run "${build[@]}" "$t" "corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$t")" \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  local execs peak
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log"
    echo "fuzz: $t FAILED (exit $status) after $((SECONDS - started))s; its input is in tests/fuzz/artifacts/$t/, its log tests/fuzz/logs/$t.log" >&2
    return 1
  fi
  echo "fuzz: $t: $((SECONDS - started))s, ${execs:-?} executions, peak ${peak:-?} MB," \
    "$(ls "corpus/$t" | wc -l) inputs in its corpus"
}

failed=0
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
  pids=()
  for t in "${targets[@]:i:jobs}"; do
    run "$t" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p" || failed=1
  done
done
exit "$failed"
