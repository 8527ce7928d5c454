// random: a mixed machine (seed 61): 14 states, 2 history, 1 parallel, 3 with ids.
import { assign, fromCallback, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
  },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix61",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  states: {
    wait: {},
    beta: {
      type: "parallel",
      invoke: { src: "ticker" },
      onDone: "#mix61.alpha",
      states: {
        edit: {
          initial: "view",
          on: { tick: { target: "#mix61.view", guard: ({ context }) => context.retries > 0 } },
          states: {
            view: {},
            on: { id: "on-5", tags: "busy", on: { submit: { target: "#mix61.beta.shut.on" } } },
          },
        },
        shut: {
          id: "shut-6",
          initial: "open",
          on: {
            toggle: [{ target: "edit.view", guard: "isAdmin" }, { target: "edit.on" }],
            tick: { target: "#mix61.beta.edit.on", guard: ({ context }) => context.retries > 0 },
            go: "shut.on",
          },
          states: {
            open: {
              on: {
                "user.click": { target: "#shut-6.open", guard: stateIn("#shut-6") },
                reset: { target: "#mix61.beta.edit", reenter: true },
              },
            },
            load: { history: true },
            on: {},
            gamma: { id: "gamma-10", tags: "busy", on: { cancel: { target: ".", guard: "canRetry" } } },
          },
        },
        hist: { type: "history", history: "deep" },
      },
    },
    alpha: {},
    view: {
      on: { next: [{ target: "#shut-6.gamma", guard: stateIn("#on-5") }, { target: "beta.shut.on" }] },
    },
  },
});
