// impl: `createMachine(config, implementations)` with actors, guards, delays and actions.
import { createMachine, fromPromise } from "xstate";

export const machine = createMachine(
  {
    id: "impl2",
    context: { ready: false, retries: 0, role: "user", items: [] },
    initial: "idle",
    states: {
      idle: { on: { load: { guard: "isReady", target: "loading" } }, after: { short: "loading" } },
      loading: { entry: "track", invoke: { src: "fetcher", id: "fetch", onDone: "done", onError: "idle" } },
      done: { type: "final" },
    },
  },
  {
    actors: { fetcher: fromPromise(async () => ({ ok: true })) },
    guards: { isReady: ({ context }) => context.ready },
    delays: { short: 100 },
    actions: { track: () => {} },
  },
);
