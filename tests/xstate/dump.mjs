// Ground truth for jr2c's Machine front end: build each fixture Workflow with REAL xstate 5 and
// dump the state tree xstate made, in the normalized JSON shape README.md describes.
//
//   node dump.mjs            dump every fixture into out/<name>.json
//   node dump.mjs --update   ... and copy each dump to expected/<name>.json (commit them)
//   node dump.mjs --check    ... and fail when a dump differs from expected/<name>.json, or when
//                            a fixture has no expected file, or an expected file no fixture
//   node dump.mjs NAME...    only these fixtures (by file stem)
//
// Each fixture is bundled in-process by esbuild, `@jr2/orchestrator` resolved to ./shim, and
// `xstate` and `zod` left external, so the fixture and the shim share one xstate from
// ./node_modules. The bundle goes to out/bundles/<name>.mjs (there, Node resolves `xstate`).
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { and, not, or, stateIn } from "xstate";

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, "fixtures");
const EXPECTED = join(HERE, "expected");
const OUT = join(HERE, "out");
const BUNDLES = join(OUT, "bundles");
const SHIM = join(HERE, "shim", "index.mjs");

const args = process.argv.slice(2);
const check = args.includes("--check");
const update = args.includes("--update");
const only = args.filter((a) => !a.startsWith("--"));

/** esbuild: `@jr2/orchestrator` is the shim. */
const kitShim = {
  name: "jr2-kit-shim",
  setup(b) {
    b.onResolve({ filter: /^@jr2\/orchestrator$/ }, () => ({ path: SHIM }));
  },
};

async function load(name) {
  const entry = join(FIXTURES, `${name}.ts`);
  const outfile = join(BUNDLES, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["xstate", "zod"],
    plugins: [kitShim],
    logLevel: "silent",
  });
  const mod = await import(`${pathToFileURL(outfile).href}?v=${Date.now()}`);
  if (!mod.machine?.root) throw new Error(`${name}.ts: exports no \`machine\` built by xstate`);
  return mod.machine;
}

// ---- The normalized shape ----

/** A state's key path: its keys from the root, joined by "."; the root is "". */
const keyPath = (node) => node.path.join(".");

// xstate's and/or/not/stateIn guards are functions; each kind shares one `check`.
const CHECKS = new Map([
  [and([]).check, "and"],
  [or([]).check, "or"],
  [not("x").check, "not"],
  [stateIn("x").check, "stateIn"],
]);

/**
 * A guard as one string: a named guard by its name (`"isReady"`); the kit's sentBy as
 * `jr2.sentBy(<id>)`; xstate's `and([..])`, `or([..])`, `not(..)` as `and(<g>, <g>)` etc.;
 * `stateIn(<value>)`; any other function `"inline"`. Params of other named guards are not shown.
 */
function guardText(g, machine) {
  if (g === undefined || g === null) return null;
  if (typeof g === "string") return g;
  if (typeof g === "function") {
    const kind = CHECKS.get(g.check);
    if (kind === "stateIn") return `stateIn(${stateInLeaves(machine, g.stateValue).join(", ")})`;
    if (kind) return `${kind}(${(g.guards ?? []).map((x) => guardText(x, machine)).join(", ")})`;
    return "inline";
  }
  if (typeof g === "object" && typeof g.type === "string") {
    if (g.type === "jr2.sentBy") return `jr2.sentBy(${g.params?.id})`;
    return g.type;
  }
  return "inline";
}

/**
 * The states a `stateIn` value names, as key paths: `#id` by xstate's `getStateNodeById`; a state
 * value (`"a.b"`, `{ a: "b" }`) from the root, each of its leaves (what `snapshot.matches` tests).
 */
function stateInLeaves(machine, value) {
  if (typeof value === "string" && value.startsWith("#")) return [keyPath(machine.getStateNodeById(value))];
  const out = [];
  const walk = (node, v) => {
    if (typeof v === "string") {
      let cur = node;
      for (const key of v.split(".")) if (key) cur = cur.states[key];
      out.push(keyPath(cur));
      return;
    }
    for (const [key, sub] of Object.entries(v)) walk(node.states[key], sub);
  };
  walk(machine.root, value);
  return out;
}

/**
 * A history state's default transition (`target`, read from its parent as xstate's
 * `resolveHistoryDefaultTransition` does), as `history.default`; none where no `target` is
 * written (the parent's initial).
 */
function historyDefault(node) {
  if (node.type !== "history" || node.config.target === undefined) return [];
  const targets = [node.config.target].flat().map((t) => {
    if (t.startsWith("#")) return node.machine.getStateNodeById(t);
    let cur = node.parent;
    for (const key of t.split(".")) if (key) cur = cur.states[key];
    return cur;
  });
  return [{ source: keyPath(node), event: "history.default", targets: targets.map(keyPath), guard: null, reenter: false }];
}

/**
 * A transition's trigger in a form the IR can give too: an `on` event by its name; `always`;
 * `after:<delay>` (the delay as written: ms or a delay's name); `done.invoke:<i>`,
 * `error.invoke:<i>`, `snapshot.invoke:<i>` for the state's i-th invoke; `done.state`.
 */
function eventText(node, descriptor, t) {
  if (node.config.on && Object.hasOwn(node.config.on, descriptor)) return descriptor;
  if (t.delay !== undefined) return `after:${t.delay}`;
  if (descriptor === `xstate.done.state.${node.id}`) return "done.state";
  for (const [prefix, name] of [
    ["xstate.done.actor.", "done.invoke"],
    ["xstate.error.actor.", "error.invoke"],
    ["xstate.snapshot.", "snapshot.invoke"],
  ]) {
    if (descriptor.startsWith(prefix)) {
      const id = descriptor.slice(prefix.length);
      const i = node.invoke.findIndex((inv) => inv.id === id);
      if (i >= 0) return `${name}:${i}`;
    }
  }
  return descriptor;
}

/** An invoke: its `src` ("inline" for logic written in place) and its id (null when xstate made
 * it, `<index>.<state id>`). */
function invokeOf(node, inv, i) {
  const generated = `${i}.${node.id}`;
  return {
    src: inv.src.startsWith(`xstate.invoke.`) ? "inline" : inv.src,
    id: inv.id === generated ? null : inv.id,
  };
}

export function dumpMachine(machine) {
  const states = [];
  const transitions = [];
  const walk = (node, order) => {
    const path = keyPath(node);
    states.push({
      path,
      id: node.id,
      type: node.type,
      initial: node.initial?.target?.[0]?.key ?? null,
      invokes: node.invoke.map((inv, i) => invokeOf(node, inv, i)),
    });
    const own = [];
    for (const [descriptor, defs] of node.transitions) {
      for (const t of defs) own.push(transitionOf(node, eventText(node, descriptor, t), t));
    }
    for (const t of node.always ?? []) own.push(transitionOf(node, "always", t));
    own.push(...historyDefault(node));
    // Sorted by event (stable: the candidates of one event keep their order).
    own.sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
    transitions.push(...own);
    for (const child of Object.values(node.states)) walk(child, order + 1);
  };
  walk(machine.root, 0);
  return { machine: machine.id, states, transitions };
}

function transitionOf(node, event, t) {
  return {
    source: keyPath(node),
    event,
    targets: (t.target ?? []).map(keyPath),
    guard: guardText(t.guard, node.machine),
    reenter: t.reenter === true,
  };
}

/** Pretty JSON with one state or transition a line, so a diff names the entry that changed. */
export function render(name, dump) {
  const line = (v) => `    ${JSON.stringify(v)}`;
  return [
    "{",
    `  "fixture": ${JSON.stringify(name)},`,
    `  "machine": ${JSON.stringify(dump.machine)},`,
    `  "states": [`,
    dump.states.map(line).join(",\n"),
    "  ],",
    `  "transitions": [`,
    dump.transitions.map(line).join(",\n"),
    "  ]",
    "}",
    "",
  ].join("\n");
}

function lineDiff(expected, actual) {
  const a = expected.split("\n");
  const b = actual.split("\n");
  const out = [];
  const sa = new Set(a);
  const sb = new Set(b);
  for (const l of a) if (!sb.has(l)) out.push(`- ${l.trim()}`);
  for (const l of b) if (!sa.has(l)) out.push(`+ ${l.trim()}`);
  return out.length ? out.join("\n") : "  (the same lines in another order)";
}

async function main() {
  mkdirSync(BUNDLES, { recursive: true });
  if (update) mkdirSync(EXPECTED, { recursive: true });
  const all = readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => basename(f, ".ts"))
    .sort();
  const names = only.length ? all.filter((n) => only.includes(n)) : all;
  let passed = 0;
  let failed = 0;
  for (const name of names) {
    let text;
    try {
      text = render(name, dumpMachine(await load(name)));
    } catch (e) {
      failed++;
      console.error(`FAIL ${name}: xstate could not build it: ${e?.stack ?? e}`);
      continue;
    }
    writeFileSync(join(OUT, `${name}.json`), text);
    if (update) writeFileSync(join(EXPECTED, `${name}.json`), text);
    if (check) {
      const file = join(EXPECTED, `${name}.json`);
      if (!existsSync(file)) {
        failed++;
        console.error(`FAIL ${name}: no expected/${name}.json (run: node dump.mjs --update)`);
        continue;
      }
      const expected = readFileSync(file, "utf8");
      if (expected !== text) {
        failed++;
        console.error(`FAIL ${name}: xstate's tree differs from expected/${name}.json\n${lineDiff(expected, text)}`);
        continue;
      }
    }
    passed++;
    console.log(`ok   ${name}`);
  }
  if (check && !only.length) {
    for (const f of existsSync(EXPECTED) ? readdirSync(EXPECTED) : []) {
      if (f.endsWith(".json") && !all.includes(basename(f, ".json"))) {
        failed++;
        console.error(`FAIL ${f}: expected file of no fixture`);
      }
    }
  }
  console.log(`xstate: ${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
