// random: a mixed machine (seed 29): 4 states, 0 history, 0 parallel, 0 with ids.
import { assign, setup } from "xstate";

export const machine = setup({
  guards: { canRetry: ({ context }) => context.retries < 3 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix29",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "edit",
  on: { reset: { actions: "track" }, back: { target: ".shut", guard: "canRetry" } },
  states: {
    edit: {
      on: {
        next: "shut",
        tick: { target: "#mix29.ready", reenter: true },
        toggle: { target: "#mix29.edit" },
      },
    },
    shut: { type: "final" },
    ready: { on: { "ui.*": { target: "#mix29.ready" } } },
  },
});
