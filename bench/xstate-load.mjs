// For comparison with `jr2 check` (bench/instance.sh): the time Node takes just to LOAD the same
// Workflows with real xstate 5, i.e. to run each Workflow module so that xstate builds its Machine.
//
//   node bench/xstate-load.mjs WORKFLOWS_DIR
//
// Not timed: transpiling each Workflow (esbuild, in-process, into tests/xstate/out/bench/, where
// Node resolves `xstate` and `zod` from tests/xstate/node_modules) and importing xstate, zod and
// the kit's shim once (`@jr2/orchestrator` is tests/xstate/shim, shared by every Workflow, as an
// Instance's Workflows share the kit). Timed: `import()` of every Workflow, one after another, in
// one Node process (Node loads modules on one thread). Prints one JSON line.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const XSTATE = resolve(HERE, "..", "tests", "xstate");
const SHIM = join(XSTATE, "shim", "index.mjs");
const OUT = join(XSTATE, "out", "bench");

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node bench/xstate-load.mjs WORKFLOWS_DIR");
  process.exit(2);
}
const { build } = await import(pathToFileURL(join(XSTATE, "node_modules", "esbuild", "lib", "main.js")).href);

const files = readdirSync(dir).filter((f) => f.endsWith(".ts")).sort();
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
// Each Workflow transpiled on its own; the kit, xstate and zod stay imports (one copy of each).
const kit = {
  name: "jr2-kit-shim",
  setup(b) {
    b.onResolve({ filter: /^@jr2\/orchestrator$/ }, () => ({ path: pathToFileURL(SHIM).href, external: true }));
  },
};
const t0 = performance.now();
await build({
  entryPoints: files.map((f) => join(dir, f)),
  outdir: OUT,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["xstate", "zod"],
  plugins: [kit],
  logLevel: "silent",
});
const transpileMs = performance.now() - t0;

// xstate, zod and the shim once, outside the timing (the kit's own load, not the Workflows').
const warm = join(OUT, "warm.mjs");
writeFileSync(warm, 'import "xstate";\nimport "zod";\n');
await import(pathToFileURL(warm).href);
await import(pathToFileURL(SHIM).href);

let machines = 0;
const t1 = performance.now();
for (const f of files) {
  const mod = await import(pathToFileURL(join(OUT, basename(f, ".ts") + ".mjs")).href);
  if (mod.machine?.root) machines += 1;
}
const loadMs = performance.now() - t1;
console.log(
  JSON.stringify({
    files: files.length,
    machines,
    transpile_ms: Math.round(transpileMs),
    load_ms: Math.round(loadMs * 10) / 10,
  }),
);
