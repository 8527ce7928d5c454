// Builds the npm packages' native parts for one target: the Node addon (npm/napi, crate
// jr2-node) and the `jr2` binary, into npm/<platform>/ (the platform package), and the main
// package's loader (npm/jr2/index.js) and TypeScript declarations (npm/jr2/index.d.ts), which
// napi-rs's CLI generates from the Rust side (napi-derive writes each #[napi] item's type while
// jr2-node compiles; `generateTypeDef` renders them after npm/napi/header.d.ts).
//
// usage: node npm/build.mjs [--release] [--target TRIPLE]
//
// Without --target it builds for the host with no `--target` flag, as `cargo build --release
// --bin jr2` does, so the two builds share every compiled crate (`napi build` always passes
// `--target`, which would compile the whole workspace a second time); a release job builds each
// target of the matrix with --target (.github/workflows/npm-release.yml).
import { generateTypeDef, parseTriple, writeJsBinding } from "@napi-rs/cli";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const npm = dirname(fileURLToPath(import.meta.url));
const root = dirname(npm);
const args = process.argv.slice(2);
const release = args.includes("--release");
const targetAt = args.indexOf("--target");
const target = targetAt >= 0 ? args[targetAt + 1] : undefined;

const main = JSON.parse(readFileSync(join(npm, "jr2", "package.json"), "utf8"));
const { binaryName, packageName } = main.napi;
const host = /host: (\S+)/.exec(execFileSync("rustc", ["-vV"], { encoding: "utf8" }))[1];
const triple = parseTriple(target ?? host);
const platformDir = join(npm, triple.platformArchABI);
if (!existsSync(join(platformDir, "package.json"))) {
  throw new Error(`no platform package npm/${triple.platformArchABI}/ for ${triple.triple}`);
}

const targetDir =
  process.env.CARGO_TARGET_DIR ??
  JSON.parse(execFileSync("cargo", ["metadata", "--format-version", "1", "--no-deps"], { cwd: root, encoding: "utf8" }))
    .target_directory;
const typeDefDir = mkdtempSync(join(tmpdir(), "jr2-node-typedef-"));
const cargo = (what, env = {}) => {
  const flags = ["build", "--locked", ...(release ? ["--release"] : []), ...(target ? ["--target", target] : []), ...what];
  console.error(`npm/build.mjs: cargo ${flags.join(" ")}`);
  execFileSync("cargo", flags, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
};
cargo(["--bin", "jr2"]);
// napi-build reruns jr2-node's build (so napi-derive writes the declarations) when this changes.
cargo(["-p", "jr2-node"], { NAPI_TYPE_DEF_TMP_FOLDER: typeDefDir, NAPI_FORCE_BUILD_JR2_NODE: String(Date.now()) });

const out = join(targetDir, ...(target ? [target] : []), release ? "release" : "debug");
const exe = triple.platform === "win32" ? ".exe" : "";
const lib =
  triple.platform === "win32" ? "jr2_node.dll" : triple.platform === "darwin" ? "libjr2_node.dylib" : "libjr2_node.so";
const node = join(platformDir, `${binaryName}.${triple.platformArchABI}.node`);
copyFileSync(join(out, lib), node);
copyFileSync(join(out, `jr2${exe}`), join(platformDir, `jr2${exe}`));
chmodSync(join(platformDir, `jr2${exe}`), 0o755);
if (release) strip([node, join(platformDir, `jr2${exe}`)]);

// Strips the copies the packages ship of their symbols and line tables (the workspace's release
// profile keeps line tables for profiling and backtraces: 25 MB for the two files of
// linux-x64-gnu unstripped), with `strip` (or `STRIP`): each target of the release job is built
// on a runner of its own OS and CPU, whose `strip` reads its files. Windows' MSVC builds keep
// debug information in a .pdb, not in the files, and are left as they are.
function strip(files) {
  if (triple.platform === "win32") return;
  const tool = process.env.STRIP ?? "strip";
  // macOS's strip takes -x (keep the exported symbols: the addon's napi entry points); GNU's
  // --strip-unneeded keeps what dynamic linking needs.
  const flags = triple.platform === "darwin" ? ["-x"] : ["--strip-unneeded"];
  for (const file of files) {
    const before = statSync(file).size;
    try {
      execFileSync(tool, [...flags, file], { stdio: "inherit" });
    } catch (e) {
      throw new Error(`npm/build.mjs: \`${tool} ${flags.join(" ")} ${file}\` failed (set STRIP to a strip for this target): ${e.message}`);
    }
    const mb = (n) => (n / 1e6).toFixed(1);
    console.error(`npm/build.mjs: stripped ${file}: ${mb(before)} MB -> ${mb(statSync(file).size)} MB`);
  }
}

const { exports, dts } = await generateTypeDef({
  typeDefDir,
  cwd: join(npm, "napi"),
  configDtsHeaderFile: "header.d.ts",
  declareBindingTarget: true,
});
rmSync(typeDefDir, { recursive: true, force: true });
if (exports.length === 0) throw new Error("napi-derive wrote no declarations: was jr2-node rebuilt?");
writeFileSync(join(npm, "jr2", "index.d.ts"), dts);
await writeJsBinding({
  platform: true,
  idents: exports,
  binaryName,
  packageName,
  version: main.version,
  outputDir: join(npm, "jr2"),
});
console.error(`npm/build.mjs: ${node}, ${join(platformDir, `jr2${exe}`)}, npm/jr2/index.{js,d.ts}: ${exports.join(", ")}`);
