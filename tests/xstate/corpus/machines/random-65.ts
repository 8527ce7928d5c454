// random: a mixed machine (seed 65): 4 states, 1 history, 0 parallel, 0 with ids.
import { assign, fromCallback, fromPromise, not, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
  delays: { long: 5000 },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix65",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "ready",
  invoke: { src: "ticker", systemId: "sys07" },
  on: {
    cancel: [{ target: ".load", guard: "isReady" }, { target: "#mix65.load", reenter: true }],
    tick: [
      { target: "#mix65.ready", guard: ({ context }) => context.retries > 0 },
      { target: "#mix65.view" },
    ],
  },
  states: {
    ready: { on: { reset: "#mix65.ready" } },
    load: { type: "history" },
    view: {
      invoke: {
        src: "fetcher",
        id: "inv37",
        onDone: "#mix65.load",
        onError: { target: "view", guard: not("isAdmin") },
      },
      on: { tick: "#mix65.ready" },
      after: { long: { target: "view", guard: not("isAdmin") } },
    },
  },
});
