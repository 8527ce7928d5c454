// random: a mixed machine (seed 10): 4 states, 0 history, 0 parallel, 3 with ids.
import { fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
  },
  actions: { track: () => {} },
}).createMachine({
  id: "mix10",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "gamma",
  on: { go: { target: "#mix10.on" } },
  states: {
    gamma: {
      id: "gamma.1",
      invoke: { src: "fetcher", onError: "#mix10.shut" },
      on: { submit: { target: "on", guard: "canRetry" } },
    },
    shut: { id: "shut-2", after: { "100": "#mix10.gamma" } },
    on: {
      id: "on-3",
      invoke: { src: "ticker" },
      on: {
        go: ".",
        submit: [{ target: "#mix10.on", guard: "isAdmin" }, { actions: "track", reenter: true }],
      },
    },
  },
});
