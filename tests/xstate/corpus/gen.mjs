// The differential corpus: xstate v5 machines written for it, one construct of xstate's config
// (or a mix of them) a machine. This script writes them as machines/<name>.ts; the files are
// committed, and writing them again gives the same bytes (no clock, a seeded random).
//
//   node corpus/gen.mjs            write machines/*.ts (and delete machines this no longer makes)
//   node corpus/gen.mjs --check    fail when a file differs from what this writes
//
// Each family below is a function that returns machine descriptions (emit.mjs's shape). A name
// is `<family>-<nn>`; the header comment of each file says what it covers.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { code, emit, ordered } from "./emit.mjs";
import { randomMachines } from "./random.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const MACHINES = join(HERE, "machines");

// ---- What a machine may take from setup, by name ----

export const POOL = {
  actors: {
    fetcher: "fromPromise(async () => ({ ok: true }))",
    saver: "fromPromise(async ({ input }: { input: { value: number } }) => input.value)",
    ticker: 'fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; })',
    child: "child",
  },
  guards: {
    isReady: "({ context }) => context.ready",
    canRetry: "({ context }) => context.retries < 3",
    isAdmin: '({ context }) => context.role === "admin"',
    hasItems: "({ context }) => context.items.length > 0",
    atLeast: "({ context }, params: { n: number }) => context.retries >= params.n",
  },
  delays: {
    short: "100",
    long: "5000",
    backoff: "({ context }) => (context.retries + 1) * 1000",
  },
  actions: {
    bump: "assign({ retries: ({ context }) => context.retries + 1 })",
    track: "() => {}",
    reset: "assign({ retries: 0 })",
  },
};

const CHILD = `const child = createMachine({
  id: "child",
  initial: "running",
  states: {
    running: { on: { stop: "done" } },
    done: { type: "final" },
  },
});`;

export const CONTEXT = { ready: false, retries: 0, role: "user", items: [] };

/** Every string in a value (and each "quoted" word in its code), to find what it names. */
function strings(v, out = new Set()) {
  if (typeof v === "string") out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object") {
    const syms = Object.getOwnPropertySymbols(v);
    if (syms.length) {
      const inner = v[syms[0]];
      if (typeof inner === "string") for (const m of inner.matchAll(/"([\w.]+)"/g)) out.add(m[1]);
      else strings(inner, out);
      if (Array.isArray(inner)) inner.forEach(([k]) => out.add(String(k)));
      return out;
    }
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      strings(x, out);
    }
  }
  return out;
}

/**
 * A machine in setup's form: its setup takes each pool name the config names (guards, delays,
 * actions, actors), and a config with a guard, delay or action gets the pool's context.
 */
export function mk({ name, about, config, form = "setup", impl, extraSetup, prelude }) {
  const named = strings(config);
  const setup = {};
  for (const kind of ["actors", "guards", "delays", "actions"]) {
    const used = Object.keys(POOL[kind]).filter((n) => named.has(n));
    if (used.length) setup[kind] = Object.fromEntries(used.map((n) => [n, code(POOL[kind][n])]));
  }
  if (extraSetup) for (const [k, v] of Object.entries(extraSetup)) setup[k] = { ...(setup[k] ?? {}), ...v };
  const needsContext = setup.guards || setup.delays?.backoff || setup.actions || named.has("retries");
  let cfg = config;
  if (needsContext && !("context" in config)) {
    const { id, ...rest } = config;
    cfg = id === undefined ? { context: CONTEXT, ...rest } : { id, context: CONTEXT, ...rest };
  }
  const usesChild = setup.actors?.child || JSON.stringify(impl ?? {}).includes('"child"') || prelude?.includes("child");
  return {
    name,
    about,
    form,
    setup,
    impl,
    config: cfg,
    prelude: [usesChild && !prelude?.includes("const child") ? CHILD : null, prelude].filter(Boolean).join("\n\n"),
  };
}

const pad = (n) => String(n).padStart(2, "0");
const family = (fam, list) => list.map((m, i) => ({ ...m, name: `${fam}-${pad(i + 1)}` }));

// ---- targets: every form of a transition's target ----

function targets() {
  const tree = () => ({
    id: "targets",
    initial: "a",
    states: {
      a: {
        initial: "a1",
        states: { a1: {}, a2: { initial: "x", states: { x: {}, y: {} } } },
      },
      b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
      c: { type: "final" },
    },
  });
  const forms = [
    ["a.a1", "a2", "a sibling by its key"],
    ["a.a1", "a2.y", "a sibling's descendant by a key path"],
    ["a", ".a2", "a child by `.key`"],
    ["a", ".a2.y", "a descendant by `.key.key`"],
    ["", ".b", "from the root, a child by `.key`"],
    ["", ".a.a2.x", "from the root, a deep descendant by `.a.a2.x`"],
    ["a.a1", "#bee", "a state by its `#id`"],
    ["a.a2.x", "#bee.b2", "a child of a state by `#id.child`"],
    ["b.b1", "#targets.a.a2.y", "a deep state by the Machine's id and its key path (`#id.a.b`)"],
    ["a.a1", ".", "itself by `.`"],
    ["a", ".", "a compound state itself by `.`"],
    ["", ".", "the root itself by `.`"],
    ["a.a2.y", "x", "a sibling inside a nested compound state"],
    ["b", "c", "a final sibling from a compound state"],
    ["a.a1", "#targets", "the root by the Machine's `#id`"],
    ["a.a2", "#targets.b", "a root child by `#machine.key`"],
    ["b.b2", "#targets.a.a2", "a state in another branch by `#machine.path`"],
    ["b", "b", "itself by its own key"],
  ];
  const triggers = [
    ["on", (t) => ({ on: { go: t } }), "an `on` event"],
    ["reenter", (t) => ({ on: { go: { target: t, reenter: true } } }), "an `on` event with `reenter: true`"],
    ["always", (t) => ({ always: { guard: "isReady", target: t } }), "a guarded `always`"],
  ];
  const out = [];
  for (const [source, target, what] of forms) {
    for (const [, make, how] of triggers) {
      const config = tree();
      const node = source === "" ? config : source.split(".").reduce((n, k) => n.states[k], config);
      Object.assign(node, make(target));
      out.push(
        mk({
          about: `targets: ${what} (${JSON.stringify(target)} from ${source === "" ? "the root" : `"${source}"`}), on ${how}.`,
          config,
        }),
      );
    }
  }
  return family("targets", out);
}

// ---- escaped: keys and ids with dots, written with `\\.` ----

function escaped() {
  const base = () => ({
    id: "esc",
    initial: "foo.bar",
    states: {
      "foo.bar": {},
      "baz.qux": { id: "baz.qux" },
      foo: { id: "foo", initial: "bar", states: { bar: {}, "deep.er": {} } },
      outer: { initial: "a.b", states: { "a.b": {}, c: {} } },
    },
  });
  const cases = [
    ["foo.bar", "baz\\.qux", "a sibling whose key has a dot (`baz\\\\.qux`)"],
    ["foo.bar", "#baz\\.qux", "a state whose id has a dot (`#baz\\\\.qux`)"],
    ["foo.bar", "#foo.bar", "`#foo.bar` where a state has the id `foo` with a child `bar`"],
    ["foo.bar", "foo.deep\\.er", "a key path whose last key has a dot"],
    ["foo.bar", "outer.a\\.b", "a key path into `outer`'s `a.b`"],
    ["outer", ".a\\.b", "a child whose key has a dot (`.a\\\\.b`)"],
    ["outer.c", "a\\.b", "a sibling `a.b` inside `outer`"],
    ["foo.bar", "#esc.foo\\.bar", "the Machine's id and an escaped key (`#esc.foo\\\\.bar`)"],
    ["foo.bar", "#esc.outer.a\\.b", "the Machine's id, a key and an escaped key"],
    ["foo.bar", "#foo.deep\\.er", "an `#id` and an escaped child key"],
    ["baz.qux", "foo\\.bar", "back to the initial state `foo.bar` by its escaped key"],
    ["foo", ".deep\\.er", "a child with a dot from its parent"],
  ];
  const out = [];
  for (const [source, target, what] of cases) {
    for (const after of [false, true]) {
      const config = base();
      const node = pathNode(config, source);
      Object.assign(node, after ? { after: { 500: target } } : { on: { go: target } });
      out.push(mk({ about: `escaped dots: ${what}, ${after ? "after 500 ms" : "on `go`"}.`, config }));
    }
  }
  // One state has the id `foo.bar`, another is `bar` inside the state of id `foo`: xstate reads
  // `#foo.bar` as the id `foo` and its child `bar`, and `#foo\\.bar` as the id `foo.bar`.
  const clash = () => ({
    id: "clash",
    initial: "start",
    states: {
      start: {},
      dotted: { id: "foo.bar" },
      foo: { id: "foo", initial: "other", states: { other: {}, bar: {} } },
    },
  });
  for (const [target, what] of [
    ["#foo.bar", "`#foo.bar` where the ids `foo.bar` and `foo` (with a child `bar`) both exist"],
    ["#foo\\.bar", "`#foo\\\\.bar` where the ids `foo.bar` and `foo` (with a child `bar`) both exist"],
  ]) {
    for (const after of [false, true]) {
      const config = clash();
      Object.assign(config.states.start, after ? { after: { 500: target } } : { on: { go: target } });
      out.push(mk({ about: `escaped dots: ${what}, ${after ? "after 500 ms" : "on `go`"}.`, config }));
    }
  }
  return family("escaped", out);
}

/** The state at a key path of an escaped-key corpus tree ("foo.bar" is the key "foo.bar" when
 * the root has that key). */
function pathNode(config, source) {
  if (config.states[source]) return config.states[source];
  return source.split(".").reduce((n, k) => n.states[k], config);
}

// ---- history: each form, with and without a default, in compound and parallel parents ----

function history() {
  const forms = [
    [{ type: "history" }, '`type: "history"` (no `history`: shallow)'],
    [{ type: "history", history: "shallow" }, '`type: "history", history: "shallow"`'],
    [{ type: "history", history: "deep" }, '`type: "history", history: "deep"`'],
    [{ history: true }, "`history: true` without `type`"],
    [{ history: "deep" }, '`history: "deep"` without `type`'],
    [{ history: "shallow" }, '`history: "shallow"` without `type`'],
  ];
  const defaults = [
    [undefined, "no default target"],
    ["high", "a default target by key"],
    ["high.h2", "a deep default target (`high.h2`)"],
    ["#hist.on.high.h2", "a default target by `#id.path`"],
  ];
  const out = [];
  for (const [form, formText] of forms) {
    for (const [target, targetText] of defaults) {
      out.push(
        mk({
          about: `history: ${formText} with ${targetText}, in a compound state; entered by \`on.hist\` from outside.`,
          config: {
            id: "hist",
            initial: "off",
            states: {
              off: { on: { power: "on.hist" } },
              on: {
                initial: "low",
                on: { power: "off" },
                states: {
                  low: { on: { up: "high" } },
                  high: { initial: "h1", states: { h1: { on: { next: "h2" } }, h2: {} }, on: { down: "low" } },
                  hist: { ...form, ...(target ? { target } : {}) },
                },
              },
            },
          },
        }),
      );
    }
  }
  for (const [form, formText] of forms) {
    for (const target of [undefined, "left"]) {
      out.push(
        mk({
          about: `history: ${formText}${target ? " with a default target" : ""} as a child of a parallel state.`,
          config: {
            id: "par-hist",
            initial: "idle",
            states: {
              idle: { on: { resume: "#par-hist.work.memo" } },
              work: {
                type: "parallel",
                on: { pause: "idle" },
                states: {
                  left: { initial: "l1", states: { l1: { on: { l: "l2" } }, l2: {} } },
                  right: { initial: "r1", states: { r1: { on: { r: "r2" } }, r2: {} } },
                  memo: { ...form, ...(target ? { target } : {}) },
                },
              },
            },
          },
        }),
      );
    }
  }
  for (const [form, formText] of forms) {
    out.push(
      mk({
        about: `history: ${formText} with its own \`id\`, entered by \`#resume\` from two places.`,
        config: {
          id: "hist-id",
          initial: "editing",
          states: {
            editing: {
              initial: "text",
              states: {
                text: { on: { toggle: "image" } },
                image: { initial: "crop", states: { crop: { on: { next: "rotate" } }, rotate: {} } },
                back: { ...form, id: "resume" },
              },
              on: { save: "saving" },
            },
            saving: { invoke: { src: "saver", input: { value: 1 }, onDone: "#resume", onError: "#resume" } },
          },
        },
      }),
    );
  }
  out.push(
    mk({
      about: "history: two history states (shallow and deep) in one parent, entered by events.",
      config: {
        id: "two-hist",
        initial: "out",
        states: {
          out: { on: { shallow: "in.hs", deep: "in.hd" } },
          in: {
            initial: "a",
            on: { leave: "out" },
            states: {
              a: { initial: "a1", states: { a1: { on: { go: "a2" } }, a2: {} }, on: { b: "b" } },
              b: {},
              hs: { type: "history" },
              hd: { type: "history", history: "deep" },
            },
          },
        },
      },
    }),
    mk({
      about: "history: a history state at the root, targeted with `.h` from the root.",
      config: {
        id: "root-hist",
        initial: "a",
        on: { restore: ".h" },
        states: { a: { on: { next: "b" } }, b: {}, h: { type: "history", target: "b" } },
      },
    }),
    mk({
      about: "history: a deep history in a nested compound state, defaulting to a deep state by key path.",
      config: {
        id: "nested-hist",
        initial: "outer",
        states: {
          outer: {
            initial: "mid",
            states: {
              mid: {
                initial: "x",
                states: {
                  x: { initial: "x1", states: { x1: { on: { go: "x2" } }, x2: {} } },
                  y: {},
                  h: { history: "deep", target: "x.x2" },
                },
                on: { swap: ".y" },
              },
            },
            on: { out: "away" },
          },
          away: { on: { back: "outer.mid.h" } },
        },
      },
    }),
    mk({
      about: "history: a history state targeted from an `after` and from an `always`.",
      config: {
        id: "timed-hist",
        initial: "run",
        states: {
          run: { initial: "s1", states: { s1: { on: { n: "s2" } }, s2: {}, h: { type: "history" } }, on: { pause: "paused" } },
          paused: { after: { 2000: "run.h" }, always: { guard: "isReady", target: "run.h" } },
        },
      },
    }),
    mk({
      about: "history: a shallow history whose default target is its parent's non-initial child, with a `reenter` transition into it.",
      config: {
        id: "reenter-hist",
        initial: "p",
        states: {
          p: {
            initial: "one",
            states: { one: {}, two: {}, h: { type: "history", history: "shallow", target: "two" } },
            on: { again: { target: ".h", reenter: true } },
          },
        },
      },
    }),
  );
  return family("history", out);
}

// ---- parallel ----

function parallel() {
  const region = (k, n) => ({
    initial: `${k}1`,
    states: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`${k}${i + 1}`, i + 1 < n ? { on: { [`${k}.next`]: `${k}${i + 2}` } } : { type: "final" }]),
    ),
  });
  const out = [];
  for (const regions of [2, 3, 4]) {
    const keys = ["r", "s", "t", "u"].slice(0, regions);
    out.push(
      mk({
        about: `parallel: ${regions} regions of toggling states, each ending in a final state, and the parallel state's \`onDone\`.`,
        config: {
          id: `par${regions}`,
          initial: "both",
          states: {
            both: { type: "parallel", states: Object.fromEntries(keys.map((k) => [k, region(k, 3)])), onDone: "finished" },
            finished: { type: "final" },
          },
        },
      }),
    );
  }
  const par = () => ({
    id: "multi",
    initial: "idle",
    states: {
      idle: {},
      p: {
        type: "parallel",
        states: {
          r1: { initial: "x", states: { x: {}, y: {}, z: {} } },
          r2: { initial: "x", states: { x: {}, y: {}, z: {} } },
          r3: { initial: "x", states: { x: {}, y: {} } },
        },
      },
    },
  });
  const multi = [
    ["idle", ["#multi.p.r1.y", "#multi.p.r2.z"], "`#machine.path` targets in two regions"],
    ["idle", ["p.r1.y", "p.r2.y", "p.r3.y"], "sibling key paths in three regions"],
    ["p", [".r1.z", ".r2.y"], "`.child` targets in two regions from the parallel state"],
    ["p.r1.x", ["#multi.p.r1.y", "#multi.p.r2.y"], "targets in its own and another region"],
    ["p.r1", ["#multi.p.r2.z"], "a target in another region from a region"],
    ["idle", ["p.r1.z"], "one target in one region (the others enter their initial states)"],
  ];
  for (const [source, ts, what] of multi) {
    for (const via of ["on", "always"]) {
      const config = par();
      const node = source.split(".").reduce((n, k) => n.states[k], config);
      Object.assign(node, via === "on" ? { on: { go: ts } } : { always: { guard: "isReady", target: ts } });
      out.push(mk({ about: `parallel: an array of targets, ${what}, by \`${via}\`.`, config }));
    }
  }
  out.push(
    mk({
      about: "parallel: a parallel root with two regions.",
      config: {
        id: "proot",
        type: "parallel",
        states: {
          bold: { initial: "off", states: { off: { on: { bold: "on" } }, on: { on: { bold: "off" } } } },
          italic: { initial: "off", states: { off: { on: { italic: "on" } }, on: { on: { italic: "off" } } } },
        },
      },
    }),
    mk({
      about: "parallel: a parallel state nested in a region of another parallel state.",
      config: {
        id: "nested-par",
        type: "parallel",
        states: {
          outerA: {
            type: "parallel",
            states: {
              in1: { initial: "a", states: { a: { on: { t: "b" } }, b: {} } },
              in2: { initial: "a", states: { a: { on: { t: "b" } }, b: {} } },
            },
          },
          outerB: { initial: "idle", states: { idle: { on: { go: "busy" } }, busy: { on: { go: "idle" } } } },
        },
      },
    }),
    mk({
      about: "parallel: regions with events of the same name, and a parallel state's own transitions.",
      config: {
        id: "same-events",
        initial: "p",
        states: {
          p: {
            type: "parallel",
            on: { reset: { target: "p", reenter: true }, stop: "stopped" },
            states: {
              a: { initial: "one", states: { one: { on: { tick: "two" } }, two: { on: { tick: "one" } } } },
              b: { initial: "one", states: { one: { on: { tick: "two" } }, two: { type: "final" } } },
            },
          },
          stopped: { type: "final" },
        },
      },
    }),
    mk({
      about: "parallel: a region with nested compound states, `onDone` in a region and the parallel state's `onDone`.",
      config: {
        id: "region-done",
        initial: "work",
        states: {
          work: {
            type: "parallel",
            onDone: "done",
            states: {
              upload: {
                initial: "sending",
                states: {
                  sending: { initial: "chunk", states: { chunk: { on: { sent: "last" } }, last: { type: "final" } }, onDone: "sent" },
                  sent: { type: "final" },
                },
              },
              scan: { initial: "scanning", states: { scanning: { on: { clean: "ok" } }, ok: { type: "final" } } },
            },
          },
          done: { type: "final" },
        },
      },
    }),
    mk({
      about: "parallel: regions that invoke actors, each with `onDone` into its region's final state.",
      config: {
        id: "par-invoke",
        type: "parallel",
        states: {
          fetch: { initial: "loading", states: { loading: { invoke: { src: "fetcher", onDone: "ok", onError: "failed" } }, ok: { type: "final" }, failed: {} } },
          tick: { initial: "on", states: { on: { invoke: { src: "ticker", id: "clock" }, on: { tick: { target: "on", reenter: true } } } } },
        },
      },
    }),
  );
  return family("parallel", out);
}

// ---- always ----

function always() {
  const list = [
    ["a chain of guarded `always` candidates and a fallback", { always: [{ guard: "isReady", target: "ready" }, { guard: "isAdmin", target: "admin" }, { target: "other" }] }],
    ["an unguarded `always` by a string", { always: "ready" }],
    ["an `always` object with a target", { always: { target: "ready" } }],
    ["a targetless `always` with an action", { always: { guard: "canRetry", actions: "bump" } }],
    ["an `always` with an inline guard", { always: { guard: code("({ context }) => context.retries > 2"), target: "other" } }],
    ["an `always` to `#id`", { always: { guard: "hasItems", target: "#admin-state" } }],
    ["an `always` with `reenter`", { always: { guard: "isReady", target: "ready", reenter: true } }],
    ["an `always` array of strings", { always: ["ready", "other"] }],
    ["`always` beside `on` and `after`", { always: { guard: "isReady", target: "ready" }, on: { skip: "other" }, after: { 1000: "admin" } }],
    ["`always` with a `not` guard", { always: { guard: code('not("isReady")'), target: "other" } }],
  ];
  const out = list.map(([what, check]) =>
    mk({
      about: `always: ${what}, in a transient state.`,
      config: {
        id: "transient",
        initial: "check",
        states: { check, ready: {}, admin: { id: "admin-state" }, other: { type: "final" } },
      },
    }),
  );
  out.push(
    mk({
      about: "always: a nested transient state that leaves its parent by `#id` and by a parent's sibling path.",
      config: {
        id: "nested-always",
        initial: "outer",
        states: {
          outer: {
            initial: "inner",
            states: { inner: { always: [{ guard: "isReady", target: "#nested-always.done" }, { target: "wait" }] }, wait: {} },
          },
          done: { type: "final" },
        },
      },
    }),
    mk({
      about: "always: the root's own `always` (targetless, with an action) and a child's.",
      config: {
        id: "root-always",
        always: { guard: "canRetry", actions: "track" },
        initial: "a",
        states: { a: { always: { guard: "isReady", target: "b" } }, b: {} },
      },
    }),
    mk({
      about: "always: `always` in each region of a parallel state, with `stateIn` of the other region.",
      config: {
        id: "region-always",
        type: "parallel",
        states: {
          a: { initial: "off", states: { off: { on: { flip: "on" } }, on: {} } },
          b: { initial: "wait", states: { wait: { always: { guard: code('stateIn("#region-always.a.on")'), target: "go" } }, go: {} } },
        },
      },
    }),
    mk({
      about: "always: a compound state with `always` and an initial child that has its own.",
      config: {
        id: "always-both",
        initial: "p",
        states: {
          p: { always: { guard: "isAdmin", target: "q" }, initial: "c", states: { c: { always: { guard: "isReady", target: "d" } }, d: {} } },
          q: {},
        },
      },
    }),
  );
  return family("always", out);
}

// ---- after ----

function after() {
  const list = [
    ["one inline delay in ms", { 1000: "next" }],
    ["an inline delay of 0", { 0: "next" }],
    ["two inline delays", { 500: "next", 3000: "late" }],
    ["a named delay from setup", { short: "next" }],
    ["two named delays", { short: "next", long: "late" }],
    ["a named delay that is a function of context", { backoff: "next" }],
    ["named and inline delays together", { short: "next", 2000: "late" }],
    ["a guarded array of candidates on one delay", { 1000: [{ guard: "isReady", target: "next" }, { target: "late" }] }],
    ["a targetless delay with an action", { 1000: { actions: "bump" } }],
    ["a delay back into itself with `reenter`", { 1000: { target: "start", reenter: true } }],
    ["a delay to `#id`", { long: "#late-state" }],
    ["a delay with an object target and a description", { 750: { target: "next", description: "move on" } }],
    ["a delay with a `not` guard", { short: { guard: code('not("canRetry")'), target: "late" } }],
    ["a delay of 1500 written as a string key", { "1500": "next" }],
  ];
  const out = list.map(([what, a]) =>
    mk({
      about: `after: ${what}.`,
      config: { id: "timer", initial: "start", states: { start: { after: a, on: { cancel: "late" } }, next: {}, late: { id: "late-state", type: "final" } } },
    }),
  );
  out.push(
    mk({
      about: "after: integer-like delay keys written out of order (JavaScript orders them ascending).",
      config: {
        id: "order",
        initial: "s",
        states: { s: { after: ordered([["2000", "b"], ["500", "a"], ["short", "c"]]) }, a: {}, b: {}, c: {} },
      },
    }),
    mk({
      about: "after: delays on a compound state and on its child.",
      config: {
        id: "after-nested",
        initial: "p",
        states: { p: { after: { 10000: "timeout" }, initial: "c", states: { c: { after: { 100: "d" } }, d: {} } }, timeout: { type: "final" } },
      },
    }),
    mk({
      about: "after: a delay on the root.",
      config: { id: "after-root", after: { long: ".done" }, initial: "run", states: { run: {}, done: { type: "final" } } },
    }),
    mk({
      about: "after: delays in two regions of a parallel state.",
      config: {
        id: "after-par",
        type: "parallel",
        states: {
          r: { initial: "a", states: { a: { after: { 100: "b" } }, b: {} } },
          s: { initial: "a", states: { a: { after: { short: "b" } }, b: { after: { long: "a" } } } },
        },
      },
    }),
    mk({
      about: "after: a retry loop: a delay with a guard and an action, then a fallback delay.",
      config: {
        id: "retry",
        initial: "waiting",
        states: {
          waiting: { after: { backoff: [{ guard: "canRetry", target: "trying", actions: "bump" }, { target: "gaveUp" }] } },
          trying: { invoke: { src: "fetcher", onDone: "ok", onError: "waiting" } },
          ok: { type: "final" },
          gaveUp: { type: "final" },
        },
      },
    }),
  );
  return family("after", out);
}

// ---- reenter ----

function reenter() {
  const cfg = (source, t) => {
    const config = {
      id: "re",
      initial: "p",
      states: { p: { initial: "c1", states: { c1: {}, c2: { initial: "x", states: { x: {}, y: {} } } } }, q: {} },
    };
    const node = source === "" ? config : source.split(".").reduce((n, k) => n.states[k], config);
    Object.assign(node, t);
    return config;
  };
  const list = [
    ["p.c1", { on: { again: { target: "c1", reenter: true } } }, "a state to itself by key, `reenter: true`"],
    ["p.c1", { on: { again: { target: "c1", reenter: false } } }, "a state to itself by key, `reenter: false` written"],
    ["p", { on: { again: { target: ".c2", reenter: true } } }, "a parent to its child, `reenter: true`"],
    ["p", { on: { again: { target: ".c2.y" } } }, "a parent to a grandchild, no `reenter`"],
    ["p", { on: { again: { target: "p", reenter: true } } }, "a compound state to itself by key, `reenter: true`"],
    ["p", { on: { again: { target: ".", reenter: true } } }, "a compound state to itself by `.`, `reenter: true`"],
    ["p.c2.x", { on: { again: { target: "#re.p", reenter: true } } }, "a grandchild to its ancestor by `#id`, `reenter: true`"],
    ["p.c2", { after: { 100: { target: "c2", reenter: true } } }, "an `after` into itself, `reenter: true`"],
    ["p.c1", { always: { guard: "isReady", target: "c2", reenter: true } }, "an `always` to a sibling, `reenter: true`"],
    ["", { on: { restart: { target: ".p", reenter: true } } }, "the root to a child, `reenter: true`"],
    ["", { on: { restart: { target: "#re", reenter: true } } }, "the root to itself by `#id`, `reenter: true`"],
    ["p", { on: { again: [{ guard: "isReady", target: ".c2", reenter: true }, { target: ".c1" }] } }, "guarded candidates, one with `reenter`"],
  ];
  return family("reenter", list.map(([s, t, what]) => mk({ about: `reenter: ${what}.`, config: cfg(s, t) })));
}

// ---- done: a state's onDone, invokes' onDone/onError, invoke arrays ----

function done() {
  const out = [];
  const stateDone = [
    ["a string", "next"],
    ["an object", { target: "next", actions: "track" }],
    ["guarded candidates", [{ guard: "isReady", target: "next" }, { target: "other" }]],
    ["no target (an action only)", { actions: "track" }],
    ["`#id`", "#other-state"],
    ["`reenter`", { target: "next", reenter: true }],
  ];
  for (const [what, onDone] of stateDone) {
    out.push(
      mk({
        about: `done: a compound state's \`onDone\` with ${what}.`,
        config: {
          id: "sdone",
          initial: "work",
          states: {
            work: { initial: "a", states: { a: { on: { finish: "b" } }, b: { type: "final" } }, onDone },
            next: {},
            other: { id: "other-state", type: "final" },
          },
        },
      }),
    );
  }
  out.push(
    mk({
      about: "done: `onDone` of a nested compound state inside another compound state with its own `onDone`.",
      config: {
        id: "nested-done",
        initial: "outer",
        states: {
          outer: {
            initial: "inner",
            states: { inner: { initial: "i", states: { i: { on: { end: "f" } }, f: { type: "final" } }, onDone: "fin" }, fin: { type: "final" } },
            onDone: "complete",
          },
          complete: { type: "final" },
        },
      },
    }),
    mk({
      about: "done: a parallel state's `onDone` with guarded candidates.",
      config: {
        id: "par-done",
        initial: "p",
        states: {
          p: {
            type: "parallel",
            onDone: [{ guard: "hasItems", target: "withItems" }, { target: "empty" }],
            states: {
              a: { initial: "x", states: { x: { on: { a: "y" } }, y: { type: "final" } } },
              b: { initial: "x", states: { x: { on: { b: "y" } }, y: { type: "final" } } },
            },
          },
          withItems: {},
          empty: {},
        },
      },
    }),
  );
  const invokes = [
    ["one invoke with `onDone` and `onError`", { src: "fetcher", onDone: "ok", onError: "failed" }],
    ["one invoke with an `id`", { src: "fetcher", id: "load", onDone: "ok", onError: "failed" }],
    ["one invoke with `input` and `systemId`", { src: "saver", id: "save", systemId: "saver", input: { value: 3 }, onDone: "ok" }],
    ["an invoke with guarded `onDone` candidates", { src: "fetcher", onDone: [{ guard: code("({ event }) => event.output.ok"), target: "ok" }, { target: "failed" }] }],
    ["an invoke with a targetless `onError`", { src: "fetcher", onDone: "ok", onError: { actions: "bump" } }],
    ["an invoke with `onError` to `#id`", { src: "fetcher", onError: "#fail-state" }],
    ["an array of two invokes, neither with an id", [{ src: "fetcher", onDone: "ok" }, { src: "ticker" }]],
    ["an array of two invokes, both with ids", [{ src: "fetcher", id: "f", onDone: "ok" }, { src: "ticker", id: "t" }]],
    ["an array of three invokes, the second with an id", [{ src: "fetcher", onError: "failed" }, { src: "saver", id: "s", input: { value: 1 }, onDone: "ok" }, { src: "ticker" }]],
    ["an array of invokes, each with `onDone` and `onError`", [{ src: "fetcher", onDone: "ok", onError: "failed" }, { src: "saver", input: { value: 2 }, onDone: "ok", onError: "failed" }]],
    ["an invoke of logic written in place", { src: code("fromPromise(async () => 42)"), onDone: "ok" }],
    ["an invoke of a child machine", { src: "child", id: "kid", onDone: "ok" }],
    ["an invoke with `onDone` and `reenter`", { src: "fetcher", onDone: { target: "loading", reenter: true } }],
    ["an invoke array with the same `src` twice", [{ src: "fetcher", id: "one", onDone: "ok" }, { src: "fetcher", id: "two", onError: "failed" }]],
  ];
  for (const [what, invoke] of invokes) {
    out.push(
      mk({
        about: `done: ${what}.`,
        config: {
          id: "inv",
          initial: "loading",
          states: { loading: { invoke, on: { cancel: "failed" } }, ok: { type: "final" }, failed: { id: "fail-state" } },
        },
      }),
    );
  }
  out.push(
    mk({
      about: "done: invokes on a compound state and on its child, with `onDone` on each.",
      config: {
        id: "inv-nested",
        initial: "session",
        states: {
          session: {
            invoke: { src: "ticker", id: "heartbeat" },
            initial: "fetching",
            states: { fetching: { invoke: { src: "fetcher", onDone: "shown" } }, shown: {} },
            on: { logout: "out" },
          },
          out: { type: "final" },
        },
      },
    }),
    mk({
      about: "done: an invoke on the root.",
      config: { id: "inv-root", invoke: { src: "ticker", id: "root-ticker" }, initial: "a", states: { a: { on: { tick: "b" } }, b: {} } },
    }),
  );
  return family("done", out);
}

// ---- meta: tags, meta, description, output, systemId, entry and exit ----

function meta() {
  const out = [];
  const list = [
    ["`tags` as a string", { tags: "busy" }],
    ["`tags` as an array", { tags: ["busy", "visible"] }],
    ["`meta` on a state", { meta: { label: "Loading", weight: 2 } }],
    ["a `description`", { description: "waits for the server" }],
    ["`entry` and `exit` actions by name", { entry: "track", exit: ["reset", "track"] }],
    ["`entry` written inline", { entry: code("assign({ ready: true })") }],
    ["`tags`, `meta` and `description` together", { tags: ["a", "b"], meta: { x: 1 }, description: "all three" }],
    ["an invoke with `systemId`", { invoke: { src: "ticker", systemId: "clock" } }],
    ["an invoke with `id` and `systemId`", { invoke: { src: "fetcher", id: "load", systemId: "loader", onDone: "done" } }],
    ["a transition with `meta` and `description`", { on: { go: { target: "done", meta: { why: "user" }, description: "the user went" } } }],
  ];
  for (const [what, extra] of list) {
    out.push(
      mk({
        about: `meta: ${what}.`,
        config: { id: "meta", initial: "main", states: { main: { ...extra, on: { ...(extra.on ?? {}), finish: "done" } }, done: { type: "final" } } },
      }),
    );
  }
  out.push(
    mk({
      about: "meta: a final state's `output` and the Machine's `output`.",
      config: {
        id: "out",
        initial: "run",
        output: code("({ context }) => ({ retries: context.retries })"),
        states: { run: { on: { end: "fin" } }, fin: { type: "final", output: { status: "ok" } } },
      },
    }),
    mk({
      about: "meta: a nested final state's `output` as a function, read by its parent's `onDone`.",
      config: {
        id: "out-fn",
        initial: "job",
        states: {
          job: {
            initial: "run",
            states: { run: { on: { end: "fin" } }, fin: { type: "final", output: code("({ context }) => context.retries") } },
            onDone: { target: "report", actions: "track" },
          },
          report: { type: "final" },
        },
      },
    }),
    mk({
      about: "meta: the root's `tags`, `meta` and `description`, and a context factory.",
      config: {
        id: "root-meta",
        context: code("({ input }) => ({ ready: false, retries: 0, role: \"user\", items: [] })"),
        tags: ["root"],
        meta: { owner: "corpus" },
        description: "the root",
        initial: "a",
        states: { a: { tags: "first", on: { next: "b" } }, b: { tags: ["second", "last"] } },
      },
    }),
    mk({
      about: "meta: `tags` on states of a parallel state and its regions.",
      config: {
        id: "par-tags",
        type: "parallel",
        states: {
          net: { tags: "net", initial: "up", states: { up: { tags: ["online"], on: { drop: "down" } }, down: { tags: ["offline"], on: { recover: "up" } } } },
          ui: { initial: "shown", states: { shown: { tags: "visible" } } },
        },
      },
    }),
    mk({
      about: "meta: a Machine with no `id` (xstate names it `(machine)`).",
      config: { initial: "a", states: { a: { on: { go: "b" } }, b: { id: "bee", on: { back: "a" } } } },
    }),
    mk({
      about: "meta: a Machine with no `id`, a `#id` target and a `.child` target from the root.",
      config: { initial: "a", on: { reset: ".a" }, states: { a: { on: { go: "#far" } }, b: { initial: "c", states: { c: { id: "far" } } } } },
    }),
  );
  return family("meta", out);
}

// ---- route ----

function route() {
  const out = [];
  const list = [
    ["a state with an `id` and `route: {}`", { id: "settings", route: {} }],
    ["`route` with a guard", { id: "settings", route: { guard: "isAdmin" } }],
    ["`route` with an action", { id: "settings", route: { actions: "track" } }],
    ["`route` with `reenter`", { id: "settings", route: { reenter: true } }],
    ["`route` on a state with no `id` (xstate ignores it)", { route: {} }],
    ["`route` with an inline guard", { id: "settings", route: { guard: code("({ context }) => context.ready") } }],
  ];
  for (const [what, extra] of list) {
    out.push(
      mk({
        about: `route: ${what}.`,
        config: { id: "app", initial: "home", states: { home: { on: { open: "settings" } }, settings: { ...extra } } },
      }),
    );
  }
  out.push(
    mk({
      about: "route: nested states with routes, and one without an id.",
      config: {
        id: "nav",
        initial: "home",
        states: {
          home: { id: "home", route: {} },
          shop: {
            initial: "list",
            states: {
              list: { id: "list", route: {} },
              item: { id: "item", route: { guard: "hasItems" } },
              cart: { route: {} },
            },
          },
        },
      },
    }),
    mk({
      about: "route: a route inside a parallel region, beside the root's own `on`.",
      config: {
        id: "par-route",
        type: "parallel",
        on: { ping: { actions: "track" } },
        states: {
          main: { initial: "a", states: { a: { id: "page-a", route: {} }, b: { id: "page-b", route: {} } } },
          side: { initial: "closed", states: { closed: {}, open: { id: "panel", route: {} } } },
        },
      },
    }),
    mk({
      about: "route: routes to a compound state and to its child.",
      config: {
        id: "deep-route",
        initial: "a",
        states: { a: {}, b: { id: "b", route: {}, initial: "b1", states: { b1: {}, b2: { id: "b2", route: {} } } } },
      },
    }),
    mk({
      about: "route: a route whose state's key has a dot and whose id has a dash.",
      config: { id: "dot-route", initial: "a", states: { a: {}, "b.c": { id: "b-c", route: {} } } },
    }),
  );
  return family("route", out);
}

// ---- guards ----

function guards() {
  const list = [
    ["a named guard", '"isReady"'],
    ["a guard object with params", '{ type: "atLeast", params: { n: 2 } }'],
    ["a guard object with no params", '{ type: "isReady" }'],
    ["an inline guard", "({ context }) => context.retries > 1"],
    ["an inline guard on the event", '({ event }) => event.type === "go"'],
    ["`and` of two named guards", 'and(["isReady", "isAdmin"])'],
    ["`or` of three guards", 'or(["isReady", "isAdmin", "hasItems"])'],
    ["`not` of a named guard", 'not("isReady")'],
    ["`not` of an inline guard", "not(({ context }) => context.ready)"],
    ["`and` of `or` and `not`", 'and([or(["isReady", "isAdmin"]), not("hasItems")])'],
    ["`or` of `and` and a guard object", 'or([and(["isReady", "canRetry"]), { type: "atLeast", params: { n: 1 } }])'],
    ["`not` of `and`", 'not(and(["isReady", "isAdmin"]))'],
    ["`stateIn` of `#id`", 'stateIn("#flags-on")'],
    ["`stateIn` of a state value string", 'stateIn("flags.on")'],
    ["`stateIn` of a state value object", "stateIn({ flags: \"on\" })"],
    ["`and` of `stateIn` and a named guard", 'and([stateIn("#flags-on"), "isReady"])'],
    ["`not` of `stateIn`", 'not(stateIn("#flags-off"))'],
    ["`stateIn` of a nested state value string", 'stateIn("flags.on.bright")'],
    ["a guard object with params as a function", '{ type: "atLeast", params: ({ context }) => ({ n: context.retries }) }'],
    ["`and` with an inline guard", 'and(["isReady", ({ context }) => context.items.length > 2])'],
  ];
  const out = [];
  for (const [what, g] of list) {
    out.push(
      mk({
        about: `guards: ${what}, on an \`on\` transition with a fallback candidate.`,
        config: {
          id: "guards",
          type: "parallel",
          states: {
            flags: {
              initial: "off",
              states: {
                off: { id: "flags-off", on: { flip: "on" } },
                on: { id: "flags-on", initial: "dim", states: { dim: { on: { up: "bright" } }, bright: {} }, on: { flip: "off" } },
              },
            },
            door: { initial: "shut", states: { shut: { on: { go: [{ guard: code(g), target: "open" }, { target: "locked" }] } }, open: {}, locked: {} } },
          },
        },
      }),
    );
  }
  out.push(
    mk({
      about: "guards: guards on `after`, `always`, a state's `onDone` and an invoke's `onDone`.",
      config: {
        id: "guard-triggers",
        initial: "a",
        states: {
          a: { after: { 100: { guard: "isReady", target: "b" } }, always: { guard: not("canRetry"), target: "c" } },
          b: { initial: "b1", states: { b1: { on: { end: "b2" } }, b2: { type: "final" } }, onDone: { guard: or(["isAdmin", "hasItems"]), target: "c" } },
          c: { invoke: { src: "fetcher", onDone: { guard: and(["isReady", "canRetry"]), target: "d" } } },
          d: {},
        },
      },
    }),
  );
  return family("guards", out);
}

const not = (g) => code(`not(${JSON.stringify(g)})`);
const or = (gs) => code(`or(${JSON.stringify(gs)})`);
const and = (gs) => code(`and(${JSON.stringify(gs)})`);

// ---- impl: implementations outside setup ----

function impl() {
  const cfg = (id) => ({
    id,
    context: CONTEXT,
    initial: "idle",
    states: {
      idle: { on: { load: { guard: "isReady", target: "loading" } }, after: { short: "loading" } },
      loading: { entry: "track", invoke: { src: "fetcher", id: "fetch", onDone: "done", onError: "idle" } },
      done: { type: "final" },
    },
  });
  const pool = (names) =>
    Object.fromEntries(
      Object.entries(names).map(([kind, ns]) => [kind, Object.fromEntries(ns.map((n) => [n, code(POOL[kind][n])]))]),
    );
  const all = pool({ actors: ["fetcher"], guards: ["isReady"], delays: ["short"], actions: ["track"] });
  const out = [
    { about: "impl: `createMachine(config, implementations)` with actors, guards, delays and actions.", form: "create-impl", impl: all, config: cfg("impl2") },
    { about: "impl: `createMachine(config, { actors })` only; the rest inline.", form: "create-impl", impl: pool({ actors: ["fetcher"] }), config: { id: "impl-actors", initial: "a", states: { a: { invoke: { src: "fetcher", onDone: "b" } }, b: {} } } },
    { about: "impl: `setup({...}).createMachine(config).provide({ actors })` that replaces an actor.", form: "setup-provide", setup: pool({ actors: ["fetcher"], guards: ["isReady"], delays: ["short"], actions: ["track"] }), impl: pool({ actors: ["fetcher"] }), config: cfg("provided") },
    { about: "impl: `createMachine(config).provide({...})` with every kind of implementation.", form: "create-provide", impl: all, config: cfg("create-provided") },
    { about: "impl: `createMachine(config)` with no implementations and no `src` (plain states only).", form: "create", config: { id: "plain", initial: "a", states: { a: { on: { go: "b" } }, b: { on: { go: "a" } } } } },
    { about: "impl: `createMachine(config)` with inline guards and inline invoke logic.", form: "create", config: { id: "plain-inline", context: { n: 0 }, initial: "a", states: { a: { on: { go: { guard: code("({ context }) => context.n === 0"), target: "b" } } }, b: { invoke: { src: code("fromPromise(async () => 1)"), onDone: "a" } } } } },
    { about: "impl: `createMachine(config, impl)` where the invokes of two states name actors of the implementations.", form: "create-impl", impl: pool({ actors: ["fetcher", "saver"] }), config: { id: "impl-two", initial: "f", states: { f: { invoke: { src: "fetcher", onDone: "s" } }, s: { invoke: { src: "saver", input: { value: 1 }, onDone: "f" } } } } },
    { about: "impl: `setup({ actors })` and `.provide({ guards })` for guards that setup does not have.", form: "setup-provide", setup: pool({ actors: ["fetcher"] }), impl: pool({ guards: ["isReady", "isAdmin"] }), config: { id: "provide-guards", context: CONTEXT, initial: "a", states: { a: { on: { go: [{ guard: "isReady", target: "b" }, { guard: "isAdmin", target: "c" }] } }, b: { invoke: { src: "fetcher" } }, c: {} } } },
    { about: "impl: `createMachine(config, { delays })` for a named delay.", form: "create-impl", impl: pool({ delays: ["long", "short"] }), config: { id: "impl-delays", initial: "a", states: { a: { after: { long: "b" } }, b: { after: { short: "a" } } } } },
    { about: "impl: `createMachine(config, { actors })` with a child machine.", form: "create-impl", impl: { actors: { child: code("child") } }, config: { id: "impl-child", initial: "a", states: { a: { invoke: { src: "child", id: "kid", onDone: "b" } }, b: {} } } },
    { about: "impl: `setup({}).createMachine(config).provide({ actors, delays })`.", form: "setup-provide", setup: {}, impl: pool({ actors: ["ticker"], delays: ["long"] }), config: { id: "empty-setup", initial: "a", states: { a: { invoke: { src: "ticker" }, after: { long: "b" } }, b: {} } } },
    { about: "impl: `setup` with `types` and the Machine's `input` to context.", form: "setup", setup: { types: code("{} as { context: { n: number }; input: { n: number } }") }, config: { id: "typed", context: code("({ input }) => ({ n: input.n })"), initial: "a", states: { a: { on: { go: { guard: code("({ context }) => context.n > 0"), target: "b" } } }, b: {} } } },
  ];
  return family(
    "impl",
    out.map((m) => ({ ...m, prelude: JSON.stringify(m.impl ?? {}).includes("child") ? CHILD : undefined })),
  );
}

// ---- spawn: spawnChild and spawn in entry ----

function spawn() {
  const list = [
    ["`spawnChild` of a named actor in `entry`", 'spawnChild("ticker")'],
    ["`spawnChild` with an `id`", 'spawnChild("ticker", { id: "clock" })'],
    ["`spawnChild` with an `id` and `systemId`", 'spawnChild("fetcher", { id: "bg", systemId: "background" })'],
    ["`spawnChild` of a child machine", 'spawnChild("child", { id: "kid" })'],
    ["`spawnChild` of logic written in place", "spawnChild(fromPromise(async () => 1))"],
    ["`spawnChild` with `input`", 'spawnChild("saver", { id: "s", input: { value: 7 } })'],
    ["`spawnChild` beside a named action in an `entry` array", '["track", spawnChild("ticker", { id: "t" })]'],
    ["`assign` with `spawn`", 'assign({ ref: ({ spawn }) => spawn("ticker") })'],
    ["`assign` with `spawn` of a child machine with an id", 'assign({ ref: ({ spawn }) => spawn("child", { id: "kid" }) })'],
    ["two `spawnChild` in one `entry`", '[spawnChild("ticker", { id: "a" }), spawnChild("fetcher", { id: "b" })]'],
    ["`spawnChild` of a child machine written in place", 'spawnChild(createMachine({ id: "inner", initial: "a", states: { a: {} } }), { id: "inner" })'],
    ["`spawnChild` of a child machine by its binding, not by a name of setup", 'spawnChild(child, { id: "kid" })'],
  ];
  const out = list.map(([what, entry]) =>
    mk({
      about: `spawn: ${what}.`,
      config: {
        id: "spawner",
        context: { ref: null },
        initial: "idle",
        states: { idle: { on: { start: "running" } }, running: { entry: code(entry), on: { stop: "idle" } } },
      },
      prelude: entry.includes("(child,") ? CHILD : undefined,
    }),
  );
  out.push(
    mk({
      about: "spawn: `spawnChild` in the root's `entry`.",
      config: { id: "root-spawn", entry: code('spawnChild("ticker", { id: "root-clock" })'), initial: "a", states: { a: { on: { tick: "b" } }, b: {} } },
    }),
    mk({
      about: "spawn: `spawnChild` in a transition's `actions`.",
      config: { id: "action-spawn", initial: "a", states: { a: { on: { go: { target: "b", actions: code('spawnChild("fetcher", { id: "f" })') } } }, b: {} } },
    }),
  );
  return family("spawn", out);
}

// ---- events: wildcards, candidates, targetless ----

function events() {
  const list = [
    ["a wildcard `*` event", { "*": "other" }],
    ["a partial wildcard `user.*`", { "user.*": "other", "user.login": "main" }],
    ["an event name with dots", { "user.logged.in": "other" }],
    ["an event name with spaces and dashes", { "pick up": "other", "put-down": "main" }],
    ["an array of string targets (two candidates)", { go: ["other", "main"] }],
    ["guarded candidates and a fallback", { go: [{ guard: "isReady", target: "other" }, { guard: "isAdmin", target: "main" }, "third"] }],
    ["a targetless transition with actions", { poke: { actions: ["bump", "track"] } }],
    ["a targetless transition with an inline action", { poke: { actions: code("assign({ ready: true })") } }],
    ["a transition with an empty object (targetless)", { poke: {} }],
    ["many events on one state", { a: "other", b: "main", c: "third", d: { target: "other", reenter: true } }],
    ["the same target from events of different kinds", { "*": "third", go: "other" }],
    ["a transition whose target is written as an array of one", { go: { target: ["other"] } }],
  ];
  const out = list.map(([what, on]) =>
    mk({ about: `events: ${what}.`, config: { id: "ev", initial: "main", states: { main: { on }, other: { on: { back: "main" } }, third: {} } } }),
  );
  out.push(
    mk({
      about: "events: the root's `on` with a `.child` target, shadowed by a child's `on` of the same event.",
      config: { id: "shadow", on: { reset: ".a", go: ".b" }, initial: "a", states: { a: { on: { go: "c" } }, b: {}, c: {} } },
    }),
    mk({
      about: "events: an `on` key that is also a JavaScript builtin name (`toString`, `constructor`).",
      config: { id: "builtin-ev", initial: "a", states: { a: { on: { toString: "b", constructor: "b" } }, b: {} } },
    }),
  );
  return family("events", out);
}

// ---- keys: state keys of unusual forms, in written order ----

function keys() {
  const out = [
    mk({
      about: "keys: integer-like state keys written out of order (JavaScript orders them ascending), and an initial of one.",
      config: { id: "nums", initial: "2", states: ordered([["2", { on: { go: "10" } }], ["10", {}], ["1", { on: { go: "2" } }]]) },
    }),
    mk({
      about: "keys: state keys with spaces, dashes and non-ASCII letters.",
      config: { id: "odd", initial: "first step", states: { "first step": { on: { go: "zweite-Stufe" } }, "zweite-Stufe": { on: { go: "dritte é" } }, "dritte é": {} } },
    }),
    mk({
      about: "keys: a key `states`, a key `on` and a key `id` as state keys.",
      config: { id: "meta-keys", initial: "states", states: { states: { on: { go: "on" } }, on: { on: { go: "id" } }, id: {} } },
    }),
    mk({
      about: "keys: integer-like keys in a nested state, mixed with named keys written before them.",
      config: {
        id: "mixed",
        initial: "p",
        states: { p: { initial: "b", states: ordered([["b", { on: { go: "3" } }], ["3", {}], ["a", {}], ["0", {}]]) } },
      },
    }),
    mk({
      about: "keys: ids with dashes, colons and slashes, and `#` targets to them.",
      config: {
        id: "ids",
        initial: "a",
        states: { a: { id: "step-1", on: { go: "#step:2" } }, b: { id: "step:2", on: { go: "#step/3" } }, c: { id: "step/3", on: { go: "#step-1" } } },
      },
    }),
    mk({
      about: "keys: a Machine id with a dash, `#machine-id.path` targets.",
      config: { id: "my-app", initial: "a", states: { a: { initial: "x", states: { x: { on: { go: "#my-app.b" } } } }, b: { on: { go: "#my-app.a.x" } } } },
    }),
    mk({
      about: "keys: a state key that is a JavaScript builtin name (`constructor`, `toString`).",
      config: { id: "builtin-keys", initial: "constructor", states: { constructor: { on: { go: "toString" } }, toString: {} } },
    }),
    mk({
      about: "keys: a deep tree (six levels), a `#machine.path` target to its leaf.",
      config: {
        id: "deep",
        initial: "l1",
        on: { dive: "#deep.l1.l2.l3.l4.l5.l6" },
        states: { l1: { initial: "l2", states: { l2: { initial: "l3", states: { l3: { initial: "l4", states: { l4: { initial: "l5", states: { l5: { initial: "l6", states: { l6: {}, other: { on: { up: "#deep" } } } } } } } } } } } } },
      },
    }),
    mk({
      about: "keys: a wide state (twelve children) with a transition from each to the next.",
      config: {
        id: "wide",
        initial: "s0",
        states: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`s${i}`, i < 11 ? { on: { next: `s${i + 1}` } } : { type: "final" }])),
      },
    }),
    mk({
      about: "keys: a compound state whose `initial` is written after `states`.",
      config: { id: "late-initial", states: { b: { on: { go: "a" } }, a: {} }, initial: "a" },
    }),
  ];
  return family("keys", out);
}

// ---- realistic: machines as people write them ----

function realistic() {
  const out = [
    mk({
      about: "realistic: a traffic light with a pedestrian crossing (nested states, `after` by name and by ms).",
      config: {
        id: "light",
        initial: "green",
        states: {
          green: { after: { long: "yellow" }, on: { emergency: "red" } },
          yellow: { after: { 1000: "red" } },
          red: {
            initial: "walk",
            states: { walk: { after: { short: "wait" } }, wait: { after: { short: "stop" } }, stop: { type: "final" } },
            onDone: "green",
          },
        },
      },
    }),
    mk({
      about: "realistic: a fetch with retries (invoke, `onError` with a guard and an action, `after` by a function delay).",
      config: {
        id: "fetch",
        initial: "idle",
        states: {
          idle: { on: { fetch: "loading" } },
          loading: {
            invoke: { src: "fetcher", id: "request", onDone: { target: "success" }, onError: [{ guard: "canRetry", target: "retrying", actions: "bump" }, { target: "failure" }] },
          },
          retrying: { after: { backoff: "loading" } },
          success: { type: "final" },
          failure: { on: { retry: { target: "loading", actions: "reset" } } },
        },
      },
    }),
    mk({
      about: "realistic: a form wizard (steps, back and next, a history to resume, submit with an invoke).",
      config: {
        id: "wizard",
        initial: "editing",
        states: {
          editing: {
            initial: "name",
            states: {
              name: { on: { next: "address" } },
              address: { on: { next: "payment", back: "name" } },
              payment: { on: { back: "address", submit: "#wizard.submitting" } },
              resume: { type: "history" },
            },
            on: { help: "help" },
          },
          help: { on: { close: "editing.resume" } },
          submitting: { invoke: { src: "saver", input: { value: 1 }, onDone: "done", onError: "editing.payment" } },
          done: { type: "final" },
        },
      },
    }),
    mk({
      about: "realistic: a media player (parallel playback and volume, deep history, tags).",
      config: {
        id: "player",
        type: "parallel",
        states: {
          playback: {
            initial: "stopped",
            states: {
              stopped: { tags: "idle", on: { play: "playing" } },
              playing: { tags: "busy", initial: "normal", states: { normal: { on: { ff: "fast" } }, fast: { on: { ff: "normal" } } }, on: { pause: "paused", stop: "stopped" } },
              paused: { on: { play: "hist", stop: "stopped" } },
              hist: { type: "history", history: "deep", target: "playing" },
            },
          },
          volume: {
            initial: "unmuted",
            states: { unmuted: { on: { mute: "muted" } }, muted: { on: { mute: "unmuted" } } },
          },
        },
      },
    }),
    mk({
      about: "realistic: authentication (invoke arrays, `systemId`, `onDone` and `onError`, a wildcard).",
      config: {
        id: "auth",
        initial: "checking",
        states: {
          checking: { invoke: [{ src: "fetcher", id: "session", systemId: "session", onDone: "signedIn", onError: "signedOut" }, { src: "ticker", id: "timeout" }] },
          signedOut: { on: { login: "signingIn", "*": { actions: "track" } } },
          signingIn: { invoke: { src: "saver", input: { value: 0 }, onDone: "signedIn", onError: { target: "signedOut", actions: "bump" } } },
          signedIn: { on: { logout: "signedOut" }, tags: ["authed"] },
        },
      },
    }),
    mk({
      about: "realistic: a text editor's toolbar (a parallel root, `stateIn` guards, `always`).",
      config: {
        id: "toolbar",
        type: "parallel",
        states: {
          selection: { initial: "none", states: { none: { on: { select: "some" } }, some: { on: { clear: "none" } } } },
          format: {
            initial: "disabled",
            states: {
              disabled: { always: { guard: code('stateIn("#toolbar.selection.some")'), target: "enabled" } },
              enabled: { always: { guard: code('stateIn("#toolbar.selection.none")'), target: "disabled" }, on: { bold: { actions: "track" } } },
            },
          },
        },
      },
    }),
    mk({
      about: "realistic: a checkout (nested compound states, `onDone`, `#id` targets, final `output`).",
      config: {
        id: "checkout",
        initial: "cart",
        output: code("({ context }) => ({ items: context.items })"),
        states: {
          cart: { on: { checkout: { guard: "hasItems", target: "shipping" } } },
          shipping: {
            initial: "address",
            states: { address: { on: { next: "method" } }, method: { on: { next: "chosen", back: "address" } }, chosen: { type: "final" } },
            onDone: "payment",
            on: { cancel: "#checkout.cart" },
          },
          payment: { invoke: { src: "saver", id: "pay", input: { value: 100 }, onDone: "confirmed", onError: "#checkout.shipping" } },
          confirmed: { type: "final", output: { ok: true } },
        },
      },
    }),
    mk({
      about: "realistic: a chat connection (reconnect with `after` and `reenter`, a parallel state of send and receive).",
      config: {
        id: "chat",
        initial: "connecting",
        states: {
          connecting: { invoke: { src: "fetcher", onDone: "connected", onError: "waiting" } },
          waiting: { after: { backoff: { target: "connecting", actions: "bump" } } },
          connected: {
            type: "parallel",
            on: { drop: "waiting", ping: { target: "connected", reenter: true } },
            states: {
              sending: { initial: "idle", states: { idle: { on: { send: "busy" } }, busy: { invoke: { src: "saver", input: { value: 1 }, onDone: "idle" } } } },
              receiving: { initial: "listening", states: { listening: { invoke: { src: "ticker", id: "socket" }, on: { tick: { actions: "track" } } } } },
            },
          },
        },
      },
    }),
    mk({
      about: "realistic: a vending machine (guards with params, targetless transitions, `always`).",
      config: {
        id: "vend",
        initial: "idle",
        states: {
          idle: { on: { coin: { target: "paying", actions: "bump" } } },
          paying: {
            on: { coin: { actions: "bump" }, choose: [{ guard: { type: "atLeast", params: { n: 2 } }, target: "vending" }, { target: "paying", reenter: true }] },
            after: { long: "refund" },
          },
          vending: { after: { 1000: "idle" }, entry: "reset" },
          refund: { always: { target: "idle", actions: "reset" } },
        },
      },
    }),
    mk({
      about: "realistic: a document workflow (route, tags, meta, description, history).",
      config: {
        id: "doc",
        initial: "draft",
        states: {
          draft: { id: "draft", route: {}, tags: "editable", on: { submit: "review" } },
          review: {
            id: "review",
            route: { guard: "isAdmin" },
            initial: "pending",
            meta: { title: "Review" },
            states: { pending: { on: { approve: "approved", reject: "#draft" } }, approved: { type: "final" }, h: { type: "history" } },
            onDone: "published",
          },
          published: { type: "final", description: "visible to everyone" },
        },
      },
    }),
  ];
  return family("realistic", out);
}

// ---- everything ----

const FAMILIES = [targets, escaped, history, parallel, always, after, reenter, done, meta, route, guards, impl, spawn, events, keys, realistic];

export function corpus() {
  const all = [...FAMILIES.flatMap((f) => f()), ...randomMachines(mk, code)];
  const names = new Set();
  for (const m of all) {
    if (names.has(m.name)) throw new Error(`two machines named ${m.name}`);
    names.add(m.name);
  }
  return all;
}

function main() {
  const check = process.argv.includes("--check");
  mkdirSync(MACHINES, { recursive: true });
  const all = corpus();
  const want = new Set(all.map((m) => `${m.name}.ts`));
  let differ = 0;
  for (const m of all) {
    const file = join(MACHINES, `${m.name}.ts`);
    const text = emit(m);
    if (check) {
      if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
        differ++;
        console.error(`differs: machines/${m.name}.ts`);
      }
    } else writeFileSync(file, text);
  }
  for (const f of readdirSync(MACHINES)) {
    if (f.endsWith(".ts") && !want.has(f)) {
      if (check) {
        differ++;
        console.error(`not made by gen.mjs: machines/${f}`);
      } else rmSync(join(MACHINES, f));
    }
  }
  console.log(`corpus: ${all.length} machines${check ? `, ${differ} differ from gen.mjs` : ""}`);
  process.exitCode = differ ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
