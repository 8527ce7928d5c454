// A stand-in for `@jr2/orchestrator` (the kit): just enough of its authoring surface for REAL
// xstate 5 to build each fixture Workflow, so dump.mjs can walk the state tree xstate made.
//
// It runs nothing. Every actor slot is a logic that never settles by itself (an Agent, a Gate: a
// callback actor) or settles with `{}` (an Effect, a cut, a dispatch: a promise actor), tagged with
// what the author wrote under the non-enumerable `jr2` key. The kit's load checks (refusals) are
// NOT reproduced: the ground truth here is xstate's own state tree, not the kit's rules.
//
// Decisions (README.md tells the same):
// - `jr2Setup(cfg)` is xstate's `setup({ types, actors, guards, actions, delays })`: `events`,
//   `mcp` and any other kit-only key are dropped. The kit actors `gate` and `fail` are added
//   unless the author's `actors` has its own slot by that name; the kit guards `jr2.sentBy` and
//   `jr2.failure` are added so that a run would not throw on them.
// - `workspace(body, opts)` RETURNS THE BODY MACHINE ITSELF, not a wrapper. The real kit wraps
//   the body in a wrapper Machine (placing, running, teardown, failing: ADR-0012, ADR-0073); those
//   states are kit mechanism, not the author's, and the front end's IR is the author's Machine. The
//   options are kept on `workspaceOf(machine)`. `customize(m, opts)` likewise returns `m`.
import { assign, fromCallback, fromPromise, setup } from "xstate";
import { z } from "zod";

const tag = (logic, data) => Object.defineProperty(logic, "jr2", { value: data, enumerable: false });

/** A logic that waits until stopped: an Agent's Turn, a Gate. */
const waiting = (data) => tag(fromCallback(() => () => {}), data);
/** A logic that settles once with `{}`: an Effect, a cut, a dispatch. */
const settling = (data) => tag(fromPromise(async () => ({})), data);

/** The Open marker: a part the composer binds later (ADR-0054). */
export const open = Object.freeze({ jr2Open: true });

export const SENT_BY = "jr2.sentBy";
export const FAILURE = "jr2.failure";

/** `fail()`: a Part that throws a Failure (ADR-0073). Here it waits, as nothing runs. */
export function fail() {
  return waiting({ kind: "fail" });
}

/** The kit's Gate actor: `src: "gate"`. */
export const gate = waiting({ kind: "gate" });

const KIT_ACTORS = { gate, fail: fail() };
const KIT_GUARDS = { [SENT_BY]: () => true, [FAILURE]: ({ event }) => isFailure(event?.error) };
const SETUP_KEYS = ["types", "actors", "guards", "actions", "delays", "schemas"];

export function jr2Setup(cfg = {}) {
  const picked = {};
  for (const key of SETUP_KEYS) if (cfg[key] !== undefined) picked[key] = cfg[key];
  picked.actors = { ...KIT_ACTORS, ...(cfg.actors ?? {}) };
  picked.guards = { ...KIT_GUARDS, ...(cfg.guards ?? {}) };
  const s = setup(picked);
  return {
    ...s,
    createMachine(config) {
      const machine = s.createMachine(config);
      events.set(machine, cfg.events ?? []);
      return machine;
    },
  };
}

const events = new WeakMap();
/** The `defineEvent`s a `jr2Setup` Machine declared. */
export const eventsOf = (machine) => events.get(machine) ?? [];

// ---- Agents and Effects: actor slots ----

export const agent = (definition) => waiting({ kind: "agent", definition });
export const arg = (name) => ({ jr2Arg: name });
export const command = (argv, opts = {}) => settling({ kind: "effect", effect: { kind: "command", argv, ...opts } });
export const http = (opts) => settling({ kind: "effect", effect: { kind: "http", ...opts } });
export const push = (opts = {}) => settling({ kind: "effect", effect: { kind: "push", ...opts } });
export const dispatch = (workflow, opts = {}) =>
  settling({ kind: "effect", effect: { kind: "dispatch", workflow, ...opts } });
export const mcp = (opts = {}) => settling({ kind: "effect", effect: { kind: "mcp", ...opts } });
export const worktree = (opts = {}) =>
  settling({ kind: "effect", effect: { kind: "command", argv: ["jr2-cut"], cut: { ...opts } } });

// ---- Composition ----

const workspaces = new WeakMap();
/** `workspace(body, opts)`: the body itself (see the header); its options on `workspaceOf`. */
export function workspace(body, opts = {}) {
  workspaces.set(body, opts);
  return body;
}
export const workspaceOf = (machine) => workspaces.get(machine);
export const customize = (machine, _opts = {}) => machine;

// ---- Events, guards, mappers, actions ----

export const defineEvent = (def) => Object.freeze({ ...def });
export const sentBy = (id) => ({ type: SENT_BY, params: { id } });

const paramsOfEvent = (event) => {
  const { type: _type, ...params } = event ?? {};
  return params;
};

export function paramsOf(event, def) {
  if (event?.type !== def.name) {
    throw new Error(`state entered by "${event?.type}", but its input reads the params of pick "${def.name}"`);
  }
  return def.input ? def.input.parse(paramsOfEvent(event)) : paramsOfEvent(event);
}

export function fromPick(def, fill) {
  const mapper = ({ context, event }) => {
    const params = paramsOf(event, def);
    return { ...params, ...(fill ? fill({ context, params }) : {}) };
  };
  return Object.assign(mapper, { pick: def });
}

/** `answer(fn)`: an xstate action (here one that sets nothing). */
export function answer(fn) {
  const action = () => {};
  return Object.assign(action, { jr2Answer: true, fn });
}

export const isReady = (output) => output?.outcome === "ready";
export const isFailure = (error) => typeof error === "object" && error !== null && error.jr2Failure === true;

export const secret = (name) => ({ jr2Secret: name });
export const bearer = (s) => ({ jr2Bearer: s });

/** The schema of a Chart for an Open body: here any JSON object. */
export const chartSchemaFor = (_decl) => z.record(z.string(), z.unknown());

export { assign };
