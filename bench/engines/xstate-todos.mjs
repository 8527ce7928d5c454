// xstate 5 on the todomvc machine (todos.mjs): the baseline of bench/engines.
//
//   node xstate-todos.mjs --gen N             the event script: N events, one JSON a line, stdout
//   node xstate-todos.mjs EVENTS.jsonl ROUNDS  in-process: the send loop, best of ROUNDS, as JSON
//   node xstate-todos.mjs EVENTS.jsonl --once  a whole run: read, send all, print the end
//
// The script is made by driving the real machine and choosing each event from its context (ids
// of todos it holds), with its own generator: deterministic. The list stays bounded (about 100
// todos): past 100 a commit becomes a delete.
import { createActor } from "xstate";
import { readFileSync } from "node:fs";
import { todosMachine, mulberry32, SEED, digest } from "./todos.mjs";

const [a, b] = process.argv.slice(2);

function run(events) {
  Math.random = mulberry32(SEED);
  const actor = createActor(todosMachine).start();
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (const e of events) actor.send(e);
  const c = process.cpuUsage(c0);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { seconds, cpu: (c.user + c.system) / 1e6, context: actor.getSnapshot().context };
}

if (a === "--gen") {
  const n = Number(b);
  const pick = mulberry32(7);
  const int = (k) => Math.floor(pick() * k);
  Math.random = mulberry32(SEED);
  const actor = createActor(todosMachine).start();
  const out = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const todos = actor.getSnapshot().context.todos;
    const some = () => todos[int(todos.length)];
    const r = int(100);
    let e;
    if (r < 20) e = { type: "newTodo.change", value: `todo ${i}` };
    else if (r < 36) {
      if (todos.length >= 100) e = { type: "todo.delete", id: some().id };
      else e = { type: "newTodo.commit", value: int(10) === 0 ? "   " : `todo ${i}` };
    } else if (r < 46 && todos.length) {
      const t = some();
      e = { type: "todo.commit", todo: { ...t, title: int(20) === 0 ? " " : `${t.title}!`.slice(-40) } };
    } else if (r < 50 && todos.length) e = { type: "todo.delete", id: some().id };
    else if (r < 56) e = { type: "filter.change", filter: ["all", "active", "completed"][int(3)] };
    else if (r < 94 && todos.length) e = { type: "todo.mark", id: some().id, mark: int(2) ? "completed" : "active" };
    else if (r < 96) e = { type: "todo.markAll", mark: int(4) ? "active" : "completed" };
    else if (r < 98) e = int(10) ? { type: "filter.change", filter: "all" } : { type: "todos.clearCompleted" };
    else e = { type: "newTodo.change", value: "" };
    actor.send(e);
    total += todos.length;
    out.push(JSON.stringify(e));
  }
  process.stdout.write(out.join("\n") + "\n");
  console.error(JSON.stringify({ mean_todos: total / n, ...digest(actor.getSnapshot().context) }));
} else {
  const events = readFileSync(a, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l));
  if (b === "--once") {
    console.log(JSON.stringify(digest(run(events).context)));
  } else {
    let best = Infinity;
    let bestCpu = Infinity;
    let last;
    for (let r = 0; r < Number(b || 5); r++) {
      const { seconds, cpu, context } = run(events);
      best = Math.min(best, seconds);
      bestCpu = Math.min(bestCpu, cpu);
      last = context;
    }
    console.log(JSON.stringify({ events: events.length, seconds: best, cpu_seconds: bestCpu, ...digest(last) }));
  }
}
