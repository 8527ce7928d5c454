#!/usr/bin/env bash
# The runtime's main job on the bundled example Instance, as the README shows it by hand:
# `jr2 serve examples/instance`, then `jr2 run release-check` (a command, a one-second timer, a
# Gate; no model, no network) followed to its end while `jr2 answer` answers its Gate. Exits 0 only
# when the run ended `done`. The server listens on a free loopback port and keeps its store in
# examples/instance/.jr2/ (ignored by git); it is stopped with SIGTERM at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
cargo build --locked --release --bin jr2
jr2="$CARGO_TARGET_DIR/release/jr2"
log="$(mktemp)"
"$jr2" serve examples/instance --listen 127.0.0.1:0 --offline > "$log" &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 300); do
  grep -q 'listening on' "$log" && break
  kill -0 "$server" 2>/dev/null || { echo "serve-example: jr2 serve stopped" >&2; exit 1; }
  sleep 0.1
done
cat "$log"
cd examples/instance
run="$("$jr2" run release-check --input '{"version":"1.2.0"}' --detach)"
echo "serve-example: started $run; answering its Gate once it waits"
# `jr2 run` of a started run would follow it; here the script follows with `jr2 status`.
for _ in $(seq 1 300); do
  if "$jr2" status "$run" --json | grep -q '"gate": *"reviewer"'; then
    "$jr2" answer "$run" reviewer approve
    break
  fi
  sleep 0.1
done
for _ in $(seq 1 300); do
  status="$("$jr2" status "$run" --json | sed -n 's/^ *"status": *"\([a-z]*\)".*/\1/p' | head -1)"
  [ "$status" != "live" ] && break
  sleep 0.1
done
"$jr2" status "$run"
[ "$status" = "done" ] || { echo "serve-example: the run ended ${status:-unknown}, not done" >&2; exit 1; }
echo "serve-example: $run ended done"
