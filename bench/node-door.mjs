// The door in Node (docs/benchmarks.md, "The door in Node"): in one process, the npm package's
// `admitChart` (the whole door: parse, grammar, lowering, rules 2-8, the JSON format's objects)
// over every Chart of a folder, against ajv validating the same Charts against the grammar alone
// (grammar/chart.schema.json, Ajv2020, allErrors, compiled once): both read the same strings,
// already in memory (ajv's side `JSON.parse`s each, as a validator of a model's text must).
// Rounds alternate which side goes first; prints best and median of each side and their ratios.
// usage: node bench/node-door.mjs ADDON.node CHARTS_DIR LENDS.json [ROUNDS=7]
import Ajv2020 from "ajv/dist/2020.js";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [addon, dir, lendsPath, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 7);
const { admitChart } = createRequire(import.meta.url)(addon);
const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const texts = readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => readFileSync(join(dir, f), "utf8"));
const lends = readFileSync(lendsPath, "utf8");
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(join(repo, "grammar/chart.schema.json"), "utf8")));

const sides = {
  admitChart: () => texts.reduce((n, t) => n + (admitChart(t, lends).admitted ? 1 : 0), 0),
  ajv: () => texts.reduce((n, t) => n + (validate(JSON.parse(t)) ? 1 : 0), 0),
};
// Wall time, and this process's CPU time (user + system, V8's GC threads included), which a
// machine loaded by other jobs disturbs less.
const times = { admitChart: [], ajv: [] };
const cpu = { admitChart: [], ajv: [] };
const passed = {};
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? ["ajv", "admitChart"] : ["admitChart", "ajv"]) {
    const [t0, c0] = [process.hrtime.bigint(), process.cpuUsage()];
    passed[name] = sides[name]();
    const c = process.cpuUsage(c0);
    times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    cpu[name].push((c.user + c.system) / 1e3);
  }
}
const best = (xs) => Math.min(...xs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = {
  charts: texts.length,
  mb: +(texts.reduce((n, t) => n + t.length, 0) / 1e6).toFixed(1),
  admitted: passed.admitChart,
  ajv_valid: passed.ajv,
  rounds,
  admitChart_best_ms: +best(times.admitChart).toFixed(1),
  ajv_best_ms: +best(times.ajv).toFixed(1),
  admitChart_median_ms: +median(times.admitChart).toFixed(1),
  ajv_median_ms: +median(times.ajv).toFixed(1),
};
out.ratio_best = +(out.admitChart_best_ms / out.ajv_best_ms).toFixed(2);
out.ratio_median = +(out.admitChart_median_ms / out.ajv_median_ms).toFixed(2);
// Each round's two sides run back to back: the median of their ratios is the least disturbed
// by a slow spell of the machine (seconds long on a shared host), which moves both sides alike.
out.ratio_paired_median = +median(times.admitChart.map((t, i) => t / times.ajv[i])).toFixed(2);
out.admitChart_cpu_best_ms = +best(cpu.admitChart).toFixed(1);
out.ajv_cpu_best_ms = +best(cpu.ajv).toFixed(1);
out.ratio_cpu_best = +(out.admitChart_cpu_best_ms / out.ajv_cpu_best_ms).toFixed(2);
console.log(JSON.stringify(out));
