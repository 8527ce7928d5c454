// admitChart alone (docs/benchmarks.md, "The door in Node"): the best of ROUNDS rounds of the
// npm package's admitChart over every Chart of a folder, already read into strings; for comparing
// two builds of the addon, run alternately. usage: node bench/node-admit.mjs ADDON.node CHARTS_DIR LENDS.json [ROUNDS=10]
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
const [addon, dir, lendsPath, roundsArg] = process.argv.slice(2);
const { admitChart } = createRequire(import.meta.url)(addon);
const texts = readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => readFileSync(join(dir, f), "utf8"));
const lends = readFileSync(lendsPath, "utf8");
let best = 1e9;
for (let r = 0; r < Number(roundsArg ?? 10); r++) {
  const t0 = process.hrtime.bigint();
  let n = 0; for (const t of texts) n += admitChart(t, lends).admitted ? 1 : 0;
  best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
}
console.log("best", best);
