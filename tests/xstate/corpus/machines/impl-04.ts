// impl: `createMachine(config).provide({...})` with every kind of implementation.
import { createMachine, fromPromise } from "xstate";

export const machine = createMachine({
  id: "create-provided",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: { on: { load: { guard: "isReady", target: "loading" } }, after: { short: "loading" } },
    loading: { entry: "track", invoke: { src: "fetcher", id: "fetch", onDone: "done", onError: "idle" } },
    done: { type: "final" },
  },
}).provide({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { isReady: ({ context }) => context.ready },
  delays: { short: 100 },
  actions: { track: () => {} },
});
