// after: a retry loop: a delay with a guard and an action, then a fallback delay.
import { assign, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { canRetry: ({ context }) => context.retries < 3 },
  delays: { backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }) },
}).createMachine({
  id: "retry",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "waiting",
  states: {
    waiting: {
      after: { backoff: [{ guard: "canRetry", target: "trying", actions: "bump" }, { target: "gaveUp" }] },
    },
    trying: { invoke: { src: "fetcher", onDone: "ok", onError: "waiting" } },
    ok: { type: "final" },
    gaveUp: { type: "final" },
  },
});
