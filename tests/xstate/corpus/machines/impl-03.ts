// impl: `setup({...}).createMachine(config).provide({ actors })` that replaces an actor.
import { fromPromise, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { isReady: ({ context }) => context.ready },
  delays: { short: 100 },
  actions: { track: () => {} },
})
  .createMachine({
    id: "provided",
    context: { ready: false, retries: 0, role: "user", items: [] },
    initial: "idle",
    states: {
      idle: { on: { load: { guard: "isReady", target: "loading" } }, after: { short: "loading" } },
      loading: { entry: "track", invoke: { src: "fetcher", id: "fetch", onDone: "done", onError: "idle" } },
      done: { type: "final" },
    },
  })
  .provide({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } });
