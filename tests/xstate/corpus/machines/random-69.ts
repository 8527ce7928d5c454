// random: a mixed machine (seed 69): 4 states, 1 history, 0 parallel, 2 with ids.
import { assign, fromCallback, fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: { isReady: ({ context }) => context.ready },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix69",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "edit",
  invoke: {
    src: "fetcher",
    id: "inv03",
    onDone: { actions: "track", guard: or(["isReady", not("isReady")]) },
    onError: { target: ".alpha" },
  },
  on: { back: { target: ".alpha", guard: "isReady" }, toggle: { target: ".alpha" } },
  states: {
    edit: {
      id: "edit-1",
      invoke: { src: "ticker", id: "inv14" },
      on: {
        reset: { target: "#mix69.ready" },
        go: { actions: "track", reenter: true },
        submit: { target: "alpha", guard: stateIn("#edit-1") },
      },
    },
    alpha: { type: "history" },
    ready: { id: "ready-3", type: "final" },
  },
});
