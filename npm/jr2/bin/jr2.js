#!/usr/bin/env node
// The `jr2` command of the npm package: runs the native `jr2` binary of this platform, which
// npm installed with the package as one of its optionalDependencies (the one whose os, cpu and
// libc match; nothing is downloaded at install), as esbuild and biome do. Its arguments, stdio
// and exit code are the binary's. JR2_BINARY names another binary to run instead.
"use strict";
const { spawnSync } = require("node:child_process");

function libc() {
  if (process.platform !== "linux") return "";
  // Node's report names the glibc it runs on; a musl system has none.
  const header = process.report && typeof process.report.getReport === "function" ? process.report.getReport().header : {};
  return header.glibcVersionRuntime ? "-gnu" : "-musl";
}

function platformPackage() {
  const abi = process.platform === "win32" ? "-msvc" : libc();
  return `@jr2/jr2c-${process.platform}-${process.arch}${abi}`;
}

function binary() {
  if (process.env.JR2_BINARY) return process.env.JR2_BINARY;
  const name = platformPackage();
  const exe = process.platform === "win32" ? "jr2.exe" : "jr2";
  try {
    return require.resolve(`${name}/${exe}`);
  } catch {
    process.stderr.write(
      `jr2: no jr2 binary for this platform: the package ${name} is not installed. npm installs it with ` +
        `@jr2/jr2c unless optional dependencies are omitted (--omit=optional); ${name} may not be built for ` +
        `this platform (npm/jr2/package.json lists the targets).\n`,
    );
    process.exit(2);
  }
}

const run = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (run.error) {
  process.stderr.write(`jr2: cannot run ${run.error.path ?? "the jr2 binary"}: ${run.error.message}\n`);
  process.exit(2);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status ?? 2);
