// The corpus's mixed machines: random trees (seeded, so the same every run) that mix every
// construct the families test one at a time: compound, parallel, final and history states, ids,
// `on`, `always`, `after`, invokes with `onDone`/`onError`, a state's `onDone`, guards, `reenter`,
// tags, and every valid form of a target (sibling path, `.child`, `#id`, `#id.path`, `#machine.path`,
// `.`), keys and ids with escaped dots.

const COUNT = 70;

/** mulberry32: a small seeded random. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

const KEYS = ["idle", "busy", "ready", "wait", "load", "done", "edit", "view", "open", "shut", "on", "off", "alpha", "beta", "gamma"];
const EVENTS = ["go", "next", "back", "toggle", "reset", "submit", "cancel", "tick", "user.click", "ui.*"];
const NAMED_GUARDS = ["isReady", "canRetry", "isAdmin", "hasItems"];
const esc = (k) => k.replace(/\./g, "\\.");

function tree(r, machineId) {
  let count = 0;
  const nodes = [];
  const make = (key, kind, parent, depth) => {
    const n = { key, kind, parent, depth, children: [], n: count++ };
    nodes.push(n);
    if (r.chance(0.2) && parent) n.id = r.chance(0.1) ? `${key}.${n.n}` : `${key}-${n.n}`;
    if (kind === "compound" || kind === "parallel") {
      const k = kind === "parallel" ? r.int(2, 3) : r.int(2, 4);
      const used = new Set();
      let hist = false;
      for (let i = 0; i < k; i++) {
        let ck;
        do ck = r.pick(KEYS) + (r.chance(0.015) ? ".x" : "");
        while (used.has(ck));
        used.add(ck);
        let ckind;
        if (kind === "parallel") ckind = depth >= 2 ? "atomic" : r.chance(0.8) ? "compound" : "atomic";
        else if (depth >= 3) ckind = r.chance(0.85) ? "atomic" : "final";
        else {
          const x = r.next();
          ckind = x < 0.45 ? "atomic" : x < 0.7 ? "compound" : x < 0.8 ? "parallel" : x < 0.9 ? "final" : "history";
        }
        if (i === 0 && (ckind === "history" || ckind === "final")) ckind = "atomic";
        if (ckind === "history" && hist) ckind = "atomic";
        if (ckind === "history") hist = true;
        n.children.push(make(ck, ckind, n, depth + 1));
      }
      if (kind === "parallel" && r.chance(0.3)) {
        // A history state in a parallel state, sometimes.
        n.children.push(make("hist", "history", n, depth + 1));
      }
      if (kind === "compound") {
        const choices = n.children.filter((c) => c.kind !== "history");
        n.initial = r.chance(0.7) ? choices[0] : r.pick(choices);
      }
    }
    return n;
  };
  const root = make("", r.chance(0.15) ? "parallel" : "compound", null, 0);
  root.id = machineId;
  return { root, nodes };
}

const ancestorsOf = (n) => {
  const out = [];
  for (let p = n.parent; p; p = p.parent) out.push(p);
  return out;
};
const isUnder = (t, a) => ancestorsOf(t).includes(a);
/** Key path from `a` down to `t` (escaped keys). */
const rel = (a, t) => {
  const keys = [];
  for (let x = t; x !== a; x = x.parent) keys.push(esc(x.key));
  return keys.reverse().join(".");
};

/** Every valid way to write `t` as a target of a transition of `s`. */
function forms(s, t, root) {
  const out = [];
  // xstate resolves `.` and `.child` by joining the source's own key unescaped, so from a state
  // whose key has a dot neither resolves (xstate throws): not a valid form there.
  const dotted = s.key.includes(".");
  if (t === s && !dotted) out.push(".");
  if (isUnder(t, s) && !dotted) out.push(`.${rel(s, t)}`);
  if (s.parent && isUnder(t, s.parent)) out.push(rel(s.parent, t));
  for (const a of [t, ...ancestorsOf(t)]) {
    if (a.id) out.push(a === t ? `#${esc(a.id)}` : `#${esc(a.id)}.${rel(a, t)}`);
  }
  if (t !== root) out.push(`#${root.id}.${rel(root, t)}`);
  return out;
}

function machineOf(i, mk) {
  const r = rng(7919 * (i + 1));
  const machineId = `mix${i + 1}`;
  const { root, nodes } = tree(r, machineId);
  const withId = nodes.filter((n) => n.id && n !== root && n.kind !== "history");
  const targetable = nodes.filter((n) => n !== root);
  const guard = () => {
    const x = r.next();
    if (x < 0.4) return r.pick(NAMED_GUARDS);
    if (x < 0.55) return { code: `and(["${r.pick(NAMED_GUARDS)}", "${r.pick(NAMED_GUARDS)}"])` };
    if (x < 0.65) return { code: `or(["${r.pick(NAMED_GUARDS)}", not("${r.pick(NAMED_GUARDS)}")])` };
    if (x < 0.75) return { code: `not("${r.pick(NAMED_GUARDS)}")` };
    if (x < 0.85 && withId.length) return { code: `stateIn(${JSON.stringify(`#${esc(r.pick(withId).id)}`)})` };
    return { code: "({ context }) => context.retries > 0" };
  };
  const transition = (s, opts = {}) => {
    const t = {};
    if (!r.chance(0.1)) {
      const count = s.parent?.kind === "parallel" && r.chance(0.1) ? 2 : 1;
      const targets = [];
      if (count === 2) {
        // Two targets, in two regions of the parallel parent.
        const regions = s.parent.children.filter((c) => c.kind !== "history");
        for (const reg of regions.slice(0, 2)) {
          const under = nodes.filter((x) => x === reg || isUnder(x, reg)).filter((x) => x.kind !== "history");
          const tgt = r.pick(under);
          targets.push(r.pick(forms(s, tgt, root)));
        }
      } else {
        const tgt = r.pick(targetable);
        targets.push(r.pick(forms(s, tgt, root)));
      }
      t.target = targets.length === 1 ? targets[0] : targets;
    } else t.actions = "track";
    if (opts.guard || r.chance(0.3)) t.guard = guard();
    if (r.chance(0.12)) t.reenter = true;
    return t;
  };
  const simple = (t) => (Object.keys(t).length === 1 && typeof t.target === "string" && r.chance(0.6) ? t.target : t);
  const config = (n) => {
    const c = {};
    if (n.id && n !== root) c.id = n.id;
    if (n === root) c.id = root.id;
    if (n.kind === "parallel") c.type = "parallel";
    if (n.kind === "final") c.type = "final";
    if (n.kind === "history") {
      if (r.chance(0.5)) c.type = "history";
      if (r.chance(0.5)) c.history = r.chance(0.5) ? "deep" : c.type ? "shallow" : true;
      if (!c.type && !c.history) c.history = true;
      if (r.chance(0.4)) {
        const siblings = n.parent.children.filter((x) => x.kind !== "history");
        const tgt = r.pick(siblings);
        const deeper = nodes.filter((x) => isUnder(x, tgt) && x.kind !== "history");
        c.target = deeper.length && r.chance(0.4) ? rel(n.parent, r.pick(deeper)) : esc(tgt.key);
      }
      return c;
    }
    if (n.initial) c.initial = n.initial.key;
    if (r.chance(0.1)) c.tags = r.chance(0.5) ? "busy" : ["busy", `t${n.n}`];
    if (n.kind !== "final") {
      if (r.chance(0.2)) {
        const inv = () => {
          const v = { src: r.pick(["fetcher", "ticker"]) };
          if (r.chance(0.4)) v.id = `inv${n.n}${r.int(0, 9)}`;
          if (r.chance(0.2)) v.systemId = `sys${n.n}${r.int(0, 9)}`;
          if (v.src === "fetcher") {
            if (r.chance(0.7)) v.onDone = simple(transition(n));
            if (r.chance(0.5)) v.onError = simple(transition(n));
          }
          return v;
        };
        c.invoke = r.chance(0.3) ? [inv(), inv()] : inv();
      }
      const on = {};
      for (let k = r.int(0, 3); k > 0; k--) {
        const ev = r.pick(EVENTS);
        const t = r.chance(0.2) ? [transition(n, { guard: true }), transition(n)] : simple(transition(n));
        on[ev] = t;
      }
      if (Object.keys(on).length) c.on = on;
      if (r.chance(0.15)) {
        const after = {};
        after[r.pick(["100", "1000", "short", "long"])] = simple(transition(n));
        if (r.chance(0.3)) after[r.pick(["2500", "backoff"])] = transition(n, { guard: true });
        c.after = after;
      }
      if (r.chance(0.1) && n !== root) c.always = transition(n, { guard: true });
      if ((n.kind === "compound" || n.kind === "parallel") && n !== root && r.chance(0.3)) c.onDone = simple(transition(n));
    }
    if (n.children.length) c.states = Object.fromEntries(n.children.map((ch) => [ch.key, config(ch)]));
    return c;
  };
  const raw = config(root);
  const about = `random: a mixed machine (seed ${i + 1}): ${nodes.length} states, ${nodes.filter((n) => n.kind === "history").length} history, ${
    nodes.filter((n) => n.kind === "parallel").length
  } parallel, ${withId.length} with ids.`;
  return mk({ name: `random-${String(i + 1).padStart(2, "0")}`, about, config: codeOf(raw) });
}

/** `{ code }` placeholders (guards written as calls) as emit.mjs's code values. */
let codeFn = null;
function codeOf(v) {
  if (Array.isArray(v)) return v.map(codeOf);
  if (v && typeof v === "object") {
    if (Object.keys(v).length === 1 && typeof v.code === "string") return codeFn(v.code);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, codeOf(x)]));
  }
  return v;
}

export function randomMachines(mk, code) {
  codeFn = code;
  return Array.from({ length: COUNT }, (_, i) => ({ ...machineOf(i, mk), name: `random-${String(i + 1).padStart(2, "0")}` }));
}
