// xstate 5's actor.send on the same machines as runtime/benches/events.rs, in one Node process:
// the Chart's JSON is the xstate config (a Chart's `{ "assign": { k: { "$ref": "event.n" } } }`
// becomes xstate's assign of the same path).
//
//   node xstate-events.mjs CHART.json EVENTS N [ROUNDS]       in-process, best of ROUNDS
//   node xstate-events.mjs CHART.json --script EVENTS.jsonl   a whole run: read, send, print the end
import { createActor, createMachine, assign } from "xstate";
import { readFileSync } from "node:fs";

const [chartPath, events, n, rounds = "5"] = process.argv.slice(2);

function config(c) {
  const out = Array.isArray(c) ? c.map(config) : {};
  if (Array.isArray(c)) return out;
  for (const [k, v] of Object.entries(c)) {
    if (k === "actions") {
      out.actions = v.map((a) => {
        const fields = Object.fromEntries(
          Object.entries(a.assign).map(([key, ref]) => {
            const path = ref.$ref.split(".");
            return [key, (args) => path.reduce((x, p) => x?.[p], args)];
          }),
        );
        return assign(fields);
      });
    } else if (v && typeof v === "object") {
      out[k] = config(v);
    } else {
      out[k] = v;
    }
  }
  return out;
}

const machine = createMachine(config(JSON.parse(readFileSync(chartPath, "utf8"))));
const names = (actor) => actor.getSnapshot()._nodes.filter((s) => s.type === "atomic").map((s) => s.path.join("."));

if (events === "--script") {
  const lines = readFileSync(n, "utf8").split("\n").filter((l) => l.trim());
  const actor = createActor(machine).start();
  for (const l of lines) actor.send(JSON.parse(l));
  console.log(JSON.stringify({ configuration: names(actor), context: actor.getSnapshot().context }));
} else {
  const types = events.split(",");
  const count = Number(n);
  const script = Array.from({ length: count }, (_, i) => ({ type: types[i % types.length], n: i }));
  let best = Infinity;
  let bestCpu = Infinity;
  let last;
  for (let r = 0; r < Number(rounds); r++) {
    const actor = createActor(machine).start();
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (const e of script) actor.send(e);
    const c = process.cpuUsage(c0);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
    // The process's CPU time (user and system; the garbage collector's threads too).
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1e6);
    last = names(actor);
  }
  console.log(
    JSON.stringify({
      events: count,
      seconds: best,
      events_per_second: count / best,
      cpu_seconds: bestCpu,
      events_per_cpu_second: count / bestCpu,
      final: last,
    }),
  );
}
