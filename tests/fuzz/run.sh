#!/usr/bin/env bash
# The fuzz targets (issue 16), each run for a bounded time with libFuzzer: no crash, no input
# that takes over 10 s, none past 2 GB. docs/fuzzing.md says what each target reads.
#
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     default: 20 s, every target, one after another
#
# Stable Rust runs cargo-fuzz with RUSTC_BOOTSTRAP=1 (it asks for nightly flags). Without a
# sanitizer (`-s none`): the crates are safe Rust, and what is looked for is a panic, a stack
# overflow, a hang or a blow-up, which libFuzzer catches itself. A crash's input is written to
# tests/fuzz/artifacts/<target>/ and the script fails.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(door machine lends compat lsp_framing)
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${JR2_FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}-fuzz}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
python3 seed.py
for t in "${targets[@]}"; do
  mkdir -p "artifacts/$t"
  log="artifacts/$t/last-run.log"
  echo "fuzz: $t for ${secs}s ($(ls "corpus/$t" | wc -l) inputs in its corpus)"
  status=0
  nice -n "${JR2_FUZZ_NICE:-0}" cargo fuzz run --fuzz-dir . -s none "$t" "corpus/$t" -- \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
    -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E "^#[0-9]+ +DONE|^stat::number_of_executed_units|^stat::peak_rss_mb|^Done [0-9]+ runs" "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log"
    echo "fuzz: $t failed (exit $status); its input is in tests/fuzz/artifacts/$t/" >&2
    exit 1
  fi
  echo "fuzz: $t: $(ls "corpus/$t" | wc -l) inputs in its corpus"
done
