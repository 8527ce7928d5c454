// The runtime's core against real xstate 5: random statecharts (nesting, parallel regions, final
// states and onDone, `after`, `reenter`, `assign` from the event) and random event sequences;
// xstate runs each from its config with a simulated clock, `jr2 sim` runs the same statechart
// written as a Chart, and after every step the active atomic states, the context and whether the
// run is done must be equal.
//
//   node runtime-diff.mjs JR2 [MACHINES=200] [SEED=1] [--machines] [--first=I]
//
// Machine i of a seed is generated from the number SEED * 1 000 003 + i (a mismatch prints it);
// `--first=I` starts at machine I, so `... 1 1 --machines --first=6753` runs that one alone.
//
// Any seed reproduces its machines; a mismatch prints the seed, the Chart, the events and both
// traces, and the exit code is 1.
//
// With `--machines`, each statechart is also given what a Chart cannot write, and is written as
// a TypeScript Machine that `jr2 sim` reads through the Machine front end while xstate builds the
// same source text: history states (shallow and deep, with and without a default target, and
// transitions into them), guards over the context and the event (arrow functions), `assign` from
// the context and with spreads of lists and objects and a computed key, `raise`, guarded `always` transitions, and invokes of an actor that never settles
// (with and without an `id`): after every step the ids of the running actors (xstate's
// `snapshot.children`, jr2's `started` less its `stopped`) must be equal too. Issue 34 adds
// function bodies the runtime runs lowered or in its JavaScript engine (array methods with
// callbacks, string methods, `Math`, templates, optional chaining, block bodies with `const` and
// `if`, a whole-context `assign`, helpers the file defines) and child Machines that settle: one
// done after a timer with an output its parent's `onDone` reads, one whose entry action throws,
// its error caught by the parent's `onError` or not (the parent then ends `error`, compared too).
import { createActor, createMachine, assign, fromPromise, raise, SimulatedClock } from "xstate";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
const [jr2, count = "200", seedArg = "1"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const MACHINES = flags.includes("--machines");
const FIRST = Number(flags.find((f) => f.startsWith("--first="))?.slice("--first=".length) ?? 0);
if (!jr2) {
  console.error("usage: node runtime-diff.mjs JR2 [MACHINES] [SEED] [--machines] [--first=I]");
  process.exit(2);
}

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EVENTS = ["a", "b", "c", "d"];

/** Guards as JavaScript source, from a random number and a small one. */
const GUARDS = [
  (k) => `({ event }) => event.n > ${k}`,
  (_, m) => `({ context }) => context.count < ${m + 1}`,
  (k, m) => `({ context, event }) => context.count + event.n !== ${k} && context.count <= ${m}`,
  (k) => `({ event }) => event.n % 2 === ${k % 2}`,
  (_, m) => `({ context }) => !(context.count === ${m})`,
];

/** A random statechart as a neutral tree: each state with an id s<N>. */
function generate(r) {
  let n = 0;
  const all = [];
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  function state(depth, kind) {
    const s = { id: `s${n++}`, kind, children: [], on: [], after: null, onDone: null, entryAssign: false, always: null };
    all.push(s);
    if (kind === "history") {
      s.deep = r() < 0.5;
      return s;
    }
    if (kind === "compound" || kind === "parallel") {
      const k = kind === "parallel" ? 2 : 2 + Math.floor(r() * 2);
      for (let i = 0; i < k; i++) {
        let ck;
        if (kind === "parallel") ck = "compound";
        else if (depth >= 2) ck = r() < 0.3 && i > 0 ? "final" : "atomic";
        else {
          const x = r();
          ck = x < 0.45 ? "atomic" : x < 0.65 ? "compound" : x < 0.8 ? "parallel" : i > 0 ? "final" : "atomic";
        }
        s.children.push(state(depth + 1, ck));
      }
      // A history state last, so that it is never the initial one.
      if (MACHINES && kind === "compound" && depth > 0 && r() < 0.4) s.children.push(state(depth + 1, "history"));
    }
    return s;
  }
  const root = state(0, "compound");
  const targets = all.filter((s) => s !== root);
  for (const s of targets) {
    if (s.kind === "history") {
      // A default target: one of its siblings, or (none) its parent's initial state.
      const siblings = all.find((p) => p.children.includes(s)).children.filter((c) => c.kind !== "history");
      if (r() < 0.5) s.target = pick(siblings).id;
      continue;
    }
    if (s.kind === "final") continue;
    const k = Math.floor(r() * 3);
    for (let i = 0; i < k; i++) {
      const t = { event: pick(EVENTS), reenter: r() < 0.2, assign: r() < 0.3 };
      if (r() < 0.85) t.target = pick(targets).id;
      if (MACHINES) {
        if (r() < 0.35) t.guard = pick(GUARDS)(Math.floor(r() * 100), Math.floor(r() * 4));
        if (r() < 0.3) t.count = true;
        if (r() < 0.12) t.raise = pick(EVENTS);
      }
      s.on.push(t);
    }
    // A guarded eventless transition that counts: it is taken while the count is below a bound.
    if (MACHINES && r() < 0.12) s.always = { below: 1 + Math.floor(r() * 4), target: r() < 0.6 ? pick(targets).id : null };
    // A delay of its own per state: two timers due at one instant fire in an order xstate's
    // SimulatedClock does not keep (its sort of equal deadlines), where real timers keep the
    // order they were set in, as jr2 does.
    if (r() < 0.15) s.after = { ms: 100 + 7 * Number(s.id.slice(1)), target: pick(targets).id };
    // An onDone into the state itself would enter its final state again and again (xstate has no
    // step bound: it runs out of memory), so its target is outside.
    const inside = new Set();
    const mark = (x) => {
      inside.add(x);
      x.children.forEach(mark);
    };
    mark(s);
    const outside = targets.filter((x) => !inside.has(x));
    if ((s.kind === "compound" || s.kind === "parallel") && outside.length && r() < 0.5) s.onDone = pick(outside).id;
    if (r() < 0.15) s.entryAssign = true;
  }
  return root;
}

/** The same statechart as an xstate config and as a Chart. */
function configs(root) {
  function x(s, isRoot) {
    const c = { id: s.id };
    if (s.kind === "parallel") c.type = "parallel";
    if (s.kind === "final") c.type = "final";
    if (s.children.length) {
      c.states = {};
      for (const ch of s.children) c.states[ch.id] = x(ch, false);
      if (s.kind === "compound") c.initial = s.children[0].id;
    }
    if (s.on.length) {
      c.on = {};
      for (const t of s.on) {
        const tr = {};
        if (t.target) tr.target = `#${t.target}`;
        if (t.reenter) tr.reenter = true;
        if (t.assign) tr.actions = assign({ last: ({ event }) => event.n });
        (c.on[t.event] ||= []).push(tr);
      }
    }
    if (s.after) c.after = { [s.after.ms]: `#${s.after.target}` };
    if (s.onDone) c.onDone = `#${s.onDone}`;
    if (s.entryAssign) c.entry = assign({ entered: ({ event }) => event.type });
    if (isRoot) c.context = {};
    return c;
  }
  function j(s, isRoot) {
    const c = { id: s.id };
    if (s.kind === "parallel") c.type = "parallel";
    if (s.kind === "final") c.type = "final";
    if (s.children.length) {
      c.states = {};
      for (const ch of s.children) c.states[ch.id] = j(ch, false);
      if (s.kind === "compound") c.initial = s.children[0].id;
    }
    if (s.on.length) {
      c.on = {};
      for (const t of s.on) {
        const tr = {};
        if (t.target) tr.target = `#${t.target}`;
        if (t.reenter) tr.reenter = true;
        if (t.assign) tr.actions = [{ assign: { last: { $ref: "event.n" } } }];
        (c.on[t.event] ||= []).push(tr);
      }
    }
    if (s.after) c.after = { [s.after.ms]: `#${s.after.target}` };
    if (s.onDone) c.onDone = `#${s.onDone}`;
    if (s.entryAssign) c.entry = [{ assign: { entered: { $ref: "event.type" } } }];
    if (isRoot) c.context = {};
    return c;
  }
  return { xstate: x(root, true), chart: j(root, true) };
}

/** Which states invoke (with `--machines`): from the seed and the state's id alone, not from the
 * generator's stream, so each seed's statecharts are the ones it made before invokes were added.
 * A state invokes the never-settling actor `work` once without an `id` (xstate names it
 * `0.<state id>`), or twice, the second with an `id`. */
function invokesOf(seed, id) {
  const h = rng((seed ^ 0x9e3779b9) + Number(id.slice(1)) * 7919)();
  return h < 0.12 ? 1 : h < 0.2 ? 2 : 0;
}

/**
 * Whether the `k`-th transition of a state also assigns with spreads and a computed key: drawn
 * from a stream of its own (as `invokesOf`), so that a seed's statecharts, guards and events are
 * those it gave before spreads were written.
 */
function spreadsOf(seed, id, k) {
  return rng((seed ^ 0x85ebca6b) + Number(id.slice(1)) * 7919 + k * 104729)() < 0.2;
}

/** The assign with spreads a transition may add: a list grown by the event (its last 8: in a
 * machine that loops, xstate runs 20 000 microsteps, and a list that grew by one each would make
 * every body that reads it quadratic), an object keyed by it. */
const SPREAD_ASSIGN =
  "assign({ seen: ({ context, event }) => [...(context.seen ?? []), event.n].slice(-8), " +
  "byType: ({ context, event }) => ({ ...context.byType, [event.type]: event.n, total: (context.byType?.total ?? 0) + 1 }) })";

/** Whether the `k`-th transition of a state also runs a function body (`BODIES`), and which:
 * drawn from a stream of its own (as `spreadsOf`). */
function bodyOf(seed, id, k) {
  const h = rng((seed ^ 0x27d4eb2f) + Number(id.slice(1)) * 7919 + k * 104729)();
  return h < 0.3 ? Math.floor((h / 0.3) * BODIES.length) : -1;
}

/** Whether a state invokes a child Machine that settles, and how (0: none; 1: `settles`, done
 * after 100 ms; 2: `breaks`, whose entry throws after 50 ms, caught by `onError`; 3: the same,
 * uncaught). */
function childOf(seed, id) {
  const h = rng((seed ^ 0x165667b1) + Number(id.slice(1)) * 7919)();
  return h < 0.06 ? 1 : h < 0.1 ? 2 : h < 0.12 ? 3 : 0;
}

/** Helpers the Machine's file defines (a module `const` and a function declaration). */
const HELPERS =
  "const LIMITS = { lo: 10, hi: 90 };\n" +
  "function clamp(x) { return Math.min(LIMITS.hi, Math.max(LIMITS.lo, x)); }\n" +
  "const label = (n) => (n > 50 ? `high-${n}` : `low-${n}`);\n";

/** Function bodies: each an action over the context and the event. */
const BODIES = [
  "assign({ tags: ({ context, event }) => [...(context.tags ?? []), event.type].filter((t, i, a) => a.indexOf(t) === i).slice(-3) })",
  "assign({ stats: ({ context, event }) => { const seen = [...(context.seen ?? []), event.n]; if (seen.length > 3) { return { max: Math.max(...seen), sum: seen.reduce((a, b) => a + b, 0) }; } return { big: seen.some((x) => x > 50), all: seen.every((x) => x >= 10) }; } })",
  "assign({ label: ({ context, event }) => `${label(event.n)}:${(context.label ?? 'none').split(':')[0].toUpperCase().padStart(6, '-')}` })",
  "assign({ first: ({ context, event }) => (context.seen ?? []).find((x) => x > event.n) ?? clamp(event.n) })",
  "assign({ keys: ({ context }) => Object.keys(context).sort().join(',').slice(0, 40), deep: ({ context }) => context.byType?.a ?? context.stats?.max ?? -1 })",
  "assign({ odd: ({ context, event }) => (context.seen ?? []).map((x) => x * 2 + event.n).filter((x) => x % 3 !== 0).concat([event.n]).includes(event.n + 1) })",
  "assign(({ context, event }) => ({ total: (context.total ?? 0) + Math.round(event.n / 3), recent: [event.type, ...(context.recent ?? [])].slice(0, 4) }))",
  "assign({ rounded: ({ event }) => [Math.floor(event.n / 7), Math.abs(50 - event.n), Number((event.n / 3).toFixed(2)), String(event.n).length] })",
];

/** The child Machines the parent may invoke. */
const CHILDREN =
  "const settles = createMachine({ id: \"settles\", initial: \"w\", context: ({ input }) => ({ n: input.n }), " +
  "states: { w: { after: { 100: \"d\" } }, d: { type: \"final\" } }, output: ({ context }) => ({ doubled: context.n * 2 + 1 }) });\n" +
  "const breaks = createMachine({ id: \"breaks\", initial: \"w\", states: { w: { after: { 50: \"x\" } }, " +
  "x: { entry: () => { throw new Error(\"child broke\"); } } } });\n";

/** The statechart as the source text of an xstate config (for `--machines`). */
function source(root, seed) {
  const q = JSON.stringify;
  function x(s, isRoot) {
    const f = [`id: ${q(s.id)}`];
    const invokes = isRoot || s.kind === "history" ? 0 : invokesOf(seed, s.id);
    if (invokes === 1) f.push(`invoke: { src: "work" }`);
    if (invokes === 2) f.push(`invoke: [{ src: "work" }, { src: "work", id: ${q("k" + s.id)} }]`);
    const child = isRoot || s.kind === "history" || invokes ? 0 : childOf(seed, s.id);
    if (child === 1)
      f.push(`invoke: { src: "settles", id: ${q("c" + s.id)}, input: ({ context }) => ({ n: context.count }), onDone: { actions: assign({ got: ({ event }) => event.output.doubled }) } }`);
    if (child === 2)
      f.push(`invoke: { src: "breaks", id: ${q("c" + s.id)}, onError: { actions: assign({ err: ({ event }) => event.error.message }) } }`);
    if (child === 3) f.push(`invoke: { src: "breaks", id: ${q("c" + s.id)} }`);
    if (s.kind === "history") {
      f.push(`type: "history"`, `history: ${q(s.deep ? "deep" : "shallow")}`);
      if (s.target) f.push(`target: ${q("#" + s.target)}`);
      return `{ ${f.join(", ")} }`;
    }
    if (s.kind === "parallel") f.push(`type: "parallel"`);
    if (s.kind === "final") f.push(`type: "final"`);
    if (s.children.length) {
      if (s.kind === "compound") f.push(`initial: ${q(s.children[0].id)}`);
      f.push(`states: { ${s.children.map((c) => `${c.id}: ${x(c, false)}`).join(", ")} }`);
    }
    let k = 0;
    const transition = (t) => {
      const spreads = spreadsOf(seed, s.id, k++);
      const g = [];
      if (t.target) g.push(`target: ${q("#" + t.target)}`);
      if (t.reenter) g.push(`reenter: true`);
      if (t.guard) g.push(`guard: ${t.guard}`);
      const actions = [];
      if (t.assign) actions.push(`assign({ last: ({ event }) => event.n })`);
      if (t.count) actions.push(`assign({ count: ({ context }) => context.count + 1 })`);
      if (t.raise) actions.push(`raise({ type: ${q(t.raise)}, n: 0 })`);
      if (spreads) actions.push(SPREAD_ASSIGN);
      const body = bodyOf(seed, s.id, k - 1);
      if (body >= 0) actions.push(BODIES[body]);
      if (actions.length) g.push(`actions: [${actions.join(", ")}]`);
      return `{ ${g.join(", ")} }`;
    };
    if (s.on.length) {
      const by = {};
      for (const t of s.on) (by[t.event] ||= []).push(transition(t));
      f.push(`on: { ${Object.entries(by).map(([e, ts]) => `${e}: [${ts.join(", ")}]`).join(", ")} }`);
    }
    if (s.always) {
      const t = [`guard: ({ context }) => context.count < ${s.always.below}`, `actions: assign({ count: ({ context }) => context.count + 1 })`];
      if (s.always.target) t.unshift(`target: ${q("#" + s.always.target)}`);
      f.push(`always: { ${t.join(", ")} }`);
    }
    if (s.after) f.push(`after: { ${s.after.ms}: ${q("#" + s.after.target)} }`);
    if (s.onDone) f.push(`onDone: ${q("#" + s.onDone)}`);
    if (s.entryAssign) f.push(`entry: assign({ entered: ({ event }) => event.type })`);
    if (isRoot) f.push(`context: { count: 0 }`);
    return `{ ${f.join(", ")} }`;
  }
  return x(root, true);
}

function script(r) {
  const k = 6 + Math.floor(r() * 10);
  const out = [];
  for (let i = 0; i < k; i++) {
    // Never two clock steps in a row: `jr2 sim` prints a line per fired timer, and the lines of one
    // clock step are told from the next one's by the event line between them.
    if (r() < 0.2 && !(out.length && out[out.length - 1].after !== undefined)) out.push({ after: [50, 100, 250][Math.floor(r() * 3)] });
    else out.push({ type: EVENTS[Math.floor(r() * EVENTS.length)], n: Math.floor(r() * 100) });
  }
  return out;
}

// xstate runs a loop of done events for ever (no step bound): a case whose microsteps pass this is
// one where jr2 must end the run `error` at its own bound.
const XSTATE_MICROSTEPS = 20_000;
class Loops extends Error {}
// xstate 5 can reach a configuration no statechart may be in (two active children of one compound
// state: seen with a history state's default target inside a parallel region): no oracle there.
class Invalid extends Error {}

/** Is this an xstate configuration a statechart can be in (each active state's parent active,
 * each active compound state with one active child, each active parallel state with all of its
 * regions)? */
function valid(nodes) {
  const active = new Set(nodes);
  for (const n of nodes) {
    if (n.parent && !active.has(n.parent)) return false;
    const children = Object.values(n.states ?? {}).filter((c) => c.type !== "history");
    const on = children.filter((c) => active.has(c)).length;
    if (n.type === "compound" && on !== 1) return false;
    if (n.type === "parallel" && on !== children.length) return false;
  }
  return true;
}

function xstateTrace(config, events) {
  const clock = new SimulatedClock();
  let microsteps = 0;
  const inspect = (ev) => {
    if (ev.type === "@xstate.microstep" && ++microsteps > XSTATE_MICROSTEPS) throw new Loops();
  };
  const actor = createActor(Array.isArray(config) ? createMachine(...config) : createMachine(config), { clock, inspect });
  const trace = [];
  const snap = () => {
    const s = actor.getSnapshot();
    if (!valid(s._nodes)) throw new Invalid();
    const atomic = s._nodes.filter((n) => n.type === "atomic" || n.type === "final").map((n) => n.id).sort();
    // The running actors by id (`--machines`: the invoke ids are compared too). A run that is
    // done runs none (xstate's last snapshot still lists the final state's children).
    // A child Machine (`c<state>`) runs inside jr2's run, not on its host: not an actor `jr2 sim`
    // lists; its life shows in the context its parent assigns from its end.
    const actors = MACHINES && s.status !== "done" ? Object.keys(s.children).filter((id) => !/^cs\d+$/.test(id)).sort() : undefined;
    return JSON.stringify({ atomic, context: s.context, done: s.status === "done", error: s.status === "error", actors });
  };
  actor.subscribe({ next: () => {}, error: () => {} });
  actor.start();
  trace.push(snap());
  for (const e of events) {
    if (e.after !== undefined) {
      // A millisecond at a time: a timer that fires sets the next one from its own instant, as
      // real timers do (one increment of the whole span would start it from the span's end).
      for (let ms = 0; ms < e.after; ms++) clock.increment(1);
    } else {
      actor.send(e);
    }
    trace.push(snap());
  }
  if (microsteps > XSTATE_MICROSTEPS) throw new Loops();
  return trace;
}

function jr2Trace(dir, file, chart, events, restoreAt) {
  writeFileSync(join(dir, file), typeof chart === "string" ? chart : JSON.stringify(chart));
  // The run is stored and read back once, before the script's line `restoreAt` (`{"restore":
  // true}` prints no line): what follows must still be what xstate does.
  const lines = events.map((e) => JSON.stringify(e));
  lines.splice(restoreAt, 0, JSON.stringify({ restore: true }));
  writeFileSync(join(dir, "e.jsonl"), lines.join("\n") + "\n");
  // Exit 1 is a run that ended `error` (a loop): its lines are still the trace.
  const run = spawnSync(jr2, ["sim", join(dir, file), "--events", join(dir, "e.jsonl")], { encoding: "utf8" });
  if (run.status !== 0 && run.status !== 1) throw new Error(`jr2 sim exited ${run.status}: ${run.stderr}`);
  const out = run.stdout;
  // A Machine refused before it runs (`not-executable`) prints no line: a mismatch at the start.
  if (!out.trim()) return [`jr2 sim printed nothing: ${run.stderr.slice(0, 400)}`];
  const steps = out.trim().split("\n").map((l) => JSON.parse(l));
  // One line per macrostep: a timer's firing is a macrostep of its own, so the state after an
  // `{after}` step of the script is the last line before the next script step's.
  const trace = [];
  // The actors running after each line: its `started` in, its `stopped` out.
  const running = new Set();
  const actorsAt = steps.map((l) => {
    for (const id of l.stopped ?? []) running.delete(id);
    for (const id of l.started ?? []) running.add(id);
    return MACHINES && l.status !== "done" ? [...running].sort() : undefined;
  });
  const view = (l) =>
    JSON.stringify({
      atomic: [...l.configuration].sort(),
      context: l.context,
      done: l.status === "done",
      error: l.status === "error",
      actors: actorsAt[steps.indexOf(l)],
    });
  trace.push(view(steps[0]));
  let at = 1;
  // A script line's lines: an event's own (none for an `after`), then the timers it fired and
  // the events the run took from its queue after (a child's `sendParent`, its end), as xstate
  // takes them all before `send` returns.
  // (Timers fire only on an `after` line: the timer lines after an event's are the next line's.)
  for (const e of events) {
    const clock = e.after !== undefined;
    if (!clock && at < steps.length) at++;
    while (at < steps.length && ((clock && steps[at].timer !== undefined) || steps[at].queued === true)) at++;
    trace.push(view(steps[at - 1]));
  }
  return trace;
}

const dir = mkdtempSync(join(tmpdir(), "jr2-diff-"));
let bad = 0;
let loops = 0;
let invalid = 0;
// Steps at which xstate runs at least one invoked actor (`--machines`): what the ids were compared on.
let withActors = 0;
const seed0 = Number(seedArg);
for (let i = FIRST; i < FIRST + Number(count); i++) {
  const seed = seed0 * 1_000_003 + i;
  const r = rng(seed);
  const root = generate(r);
  let { xstate, chart } = configs(root);
  let file = "m.json";
  if (MACHINES) {
    const text = source(root, seed);
    const impl = `{ actors: { work: fromPromise(() => new Promise(() => {})), settles, breaks } }`;
    const make = new Function("assign", "raise", "createMachine", "fromPromise", `${HELPERS}${CHILDREN}return [${text}, ${impl}];`);
    xstate = make(assign, raise, createMachine, fromPromise);
    file = "m.ts";
    chart = `import { assign, createMachine, fromPromise, raise } from "xstate";\n\n${HELPERS}${CHILDREN}\nexport const machine = createMachine(${text}, ${impl});\n`;
  }
  const events = script(r);
  let expected, got;
  try {
    expected = xstateTrace(xstate, events);
  } catch (e) {
    if (e instanceof Invalid) {
      invalid++;
      continue;
    }
    if (!(e instanceof Loops)) continue; // a config xstate itself refuses is not a case
    // xstate loops: jr2 must end the run `error` at its bound.
    loops++;
    writeFileSync(join(dir, file), typeof chart === "string" ? chart : JSON.stringify(chart));
    writeFileSync(join(dir, "e.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const run = spawnSync(jr2, ["sim", join(dir, file), "--events", join(dir, "e.jsonl"), "--final"], { encoding: "utf8" });
    if (run.status !== 1) {
      bad++;
      console.log(`MISMATCH seed ${seed}: xstate loops, jr2 sim exits ${run.status}: ${run.stdout}`);
    }
    continue;
  }
  // Where the run is stored and read back: from a generator of its own, so that the machines and
  // scripts of a seed are the ones they were before restores were added.
  const restoreAt = Math.floor(rng(seed ^ 0x2545f491)() * (events.length + 1));
  got = jr2Trace(dir, file, chart, events, restoreAt);
  const differs = expected.findIndex((x, k) => x !== got[k]);
  withActors += expected.filter((x) => JSON.parse(x).actors?.length).length;
  if (differs >= 0) {
    bad++;
    if (bad <= 3) {
      console.log(`MISMATCH seed ${seed} at step ${differs}`);
      console.log(typeof chart === "string" ? `machine:\n${chart}` : `chart: ${JSON.stringify(chart)}`);
      console.log(`events: ${JSON.stringify(events)}`);
      console.log(`xstate: ${expected.slice(0, differs + 1).join("\n        ")}`);
      console.log(`jr2:    ${got.slice(0, differs + 1).join("\n        ")}`);
    }
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`runtime-diff: ${loops} machines loop in xstate (past ${XSTATE_MICROSTEPS} microsteps); jr2 must end each error`);
console.log(`runtime-diff: ${invalid} machines where xstate reaches a configuration no statechart may be in (not compared)`);
if (MACHINES) console.log(`runtime-diff: ${withActors} steps compared the running actors' ids (at least one running)`);
console.log(`runtime-diff: ${Number(count) - bad - invalid} passed, ${bad} failed`);
process.exit(bad ? 1 : 0);
