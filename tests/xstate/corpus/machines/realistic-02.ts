// realistic: a fetch with retries (invoke, `onError` with a guard and an action, `after` by a function delay).
import { assign, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { canRetry: ({ context }) => context.retries < 3 },
  delays: { backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }), reset: assign({ retries: 0 }) },
}).createMachine({
  id: "fetch",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: { on: { fetch: "loading" } },
    loading: {
      invoke: {
        src: "fetcher",
        id: "request",
        onDone: { target: "success" },
        onError: [{ guard: "canRetry", target: "retrying", actions: "bump" }, { target: "failure" }],
      },
    },
    retrying: { after: { backoff: "loading" } },
    success: { type: "final" },
    failure: { on: { retry: { target: "loading", actions: "reset" } } },
  },
});
