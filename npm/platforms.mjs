// Writes the package.json of each platform package (npm/<platform>/), one per target of
// npm/jr2/package.json's `napi.targets`: the Node addon and the `jr2` binary of that target,
// installed only where `os`, `cpu` and `libc` match (npm skips the other optionalDependencies).
// `--check`: write nothing, exit 1 when a committed file differs or the main package's
// optionalDependencies do not name exactly these packages at its version (tests/npm/run.sh).
import { parseTriple } from "@napi-rs/cli";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const npm = dirname(fileURLToPath(import.meta.url));
const check = process.argv.includes("--check");
const main = JSON.parse(readFileSync(join(npm, "jr2", "package.json"), "utf8"));
const { binaryName, packageName, targets } = main.napi;
let stale = [];
const names = {};
for (const triple of targets.map(parseTriple)) {
  const dir = join(npm, triple.platformArchABI);
  const node = `${binaryName}.${triple.platformArchABI}.node`;
  const exe = triple.platform === "win32" ? "jr2.exe" : "jr2";
  const pkg = {
    name: `${packageName}-${triple.platformArchABI}`,
    version: main.version,
    description: `The ${triple.triple} build of ${packageName}: its Node addon and the jr2 binary`,
    license: main.license,
    os: [triple.platform],
    cpu: [triple.arch],
    ...(triple.abi === "gnu" ? { libc: ["glibc"] } : triple.abi === "musl" ? { libc: ["musl"] } : {}),
    main: node,
    files: [node, exe],
    engines: main.engines,
  };
  names[pkg.name] = main.version;
  const text = JSON.stringify(pkg, null, 2) + "\n";
  const file = join(dir, "package.json");
  if (check) {
    if (!existsSync(file) || readFileSync(file, "utf8") !== text) stale.push(file);
  } else {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, text);
  }
}
if (JSON.stringify(main.optionalDependencies) !== JSON.stringify(names)) {
  stale.push(`npm/jr2/package.json's optionalDependencies (want ${JSON.stringify(names)})`);
}
if (stale.length) {
  console.error(`npm/platforms.mjs: out of date (run node npm/platforms.mjs): ${stale.join(", ")}`);
  process.exit(1);
}
