// done: an invoke with a targetless `onError`.
import { assign, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }) },
}).createMachine({
  id: "inv",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "loading",
  states: {
    loading: {
      invoke: { src: "fetcher", onDone: "ok", onError: { actions: "bump" } },
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
