#!/usr/bin/env bash
# The npm package as a user gets it: builds the Node addon and `jr2` (release, for the host),
# packs npm/jr2 and its linux-x64-gnu platform package with `npm pack`, installs the two tarballs
# offline into a fresh npm project, and compares it with the cargo-built binary
# (tests/npm/compare.mjs): `npx --no jr2 ...` exits and prints as `jr2` does, and checkInstance,
# checkFiles, admitChart, chartSchema, chartBriefing and compat return what `--format json` and
# `jr2 schema` print. Fails where the committed npm/jr2/index.{js,d.ts} are not what napi-rs
# generates from npm/napi/src/lib.rs, or a platform package.json is stale.
# usage: tests/npm/run.sh   (CARGO_TARGET_DIR as .ci/run's)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/jr2c-target}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd npm && npm ci --silent --no-audit --no-fund --loglevel=error)
node npm/platforms.mjs --check
cp npm/jr2/index.js npm/jr2/index.d.ts "$tmp/"
node npm/build.mjs --release
for f in index.js index.d.ts; do
  if ! cmp -s "$tmp/$f" "npm/jr2/$f"; then
    diff -u "$tmp/$f" "npm/jr2/$f" | head -40 >&2 || true
    echo "tests/npm: npm/jr2/$f is not what napi-rs generates from npm/napi: commit the file node npm/build.mjs --release wrote" >&2
    exit 1
  fi
done

(cd npm/jr2 && npm pack --silent --pack-destination "$tmp" >/dev/null)
(cd npm/linux-x64-gnu && npm pack --silent --pack-destination "$tmp" >/dev/null)
mkdir "$tmp/app"
cd "$tmp/app"
echo '{ "name": "app", "version": "1.0.0", "private": true }' > package.json
# Offline: only the two tarballs; npm skips the other platforms' optionalDependencies.
npm install --offline --no-audit --no-fund --loglevel=error "$tmp"/jr2-jr2c-0.0.0.tgz "$tmp"/jr2-jr2c-linux-x64-gnu-0.0.0.tgz
test -x node_modules/@jr2/jr2c-linux-x64-gnu/jr2
# The package ships its two native files stripped (npm/build.mjs): no debug sections, no symbol table.
for f in node_modules/@jr2/jr2c-linux-x64-gnu/jr2 node_modules/@jr2/jr2c-linux-x64-gnu/jr2c.linux-x64-gnu.node; do
  if readelf -S --wide "$f" | grep -qE ' \.(debug_[a-z]+|symtab) '; then
    echo "tests/npm: $f is not stripped" >&2
    exit 1
  fi
done
node --test-reporter=spec "$repo/tests/npm/compare.mjs" "$repo" "$CARGO_TARGET_DIR/release/jr2"
