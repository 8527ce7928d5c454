// random: a mixed machine (seed 33): 8 states, 1 history, 0 parallel, 2 with ids.
import { assign, fromPromise, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { isAdmin: ({ context }) => context.role === "admin" },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix33",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "ready",
  states: {
    ready: {
      id: "ready-1",
      initial: "on",
      on: {
        cancel: { target: "#mix33.ready.on", guard: "isAdmin" },
        back: { target: "#ready-1.alpha", guard: stateIn("#ready-1"), reenter: true },
        "user.click": "#ready-1.open",
      },
      states: {
        on: {
          invoke: {
            src: "fetcher",
            id: "inv28",
            onDone: { target: "#mix33.off", guard: "isAdmin" },
            onError: { target: "#mix33.ready", reenter: true },
          },
          on: { "ui.*": "#mix33.ready.done" },
        },
        done: { type: "history", history: "shallow" },
        alpha: {},
        open: {},
      },
    },
    off: { on: { toggle: { target: "#ready-1" } } },
    gamma: { id: "gamma-7", on: { reset: "#ready-1.done" } },
  },
});
