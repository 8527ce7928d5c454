// random: a mixed machine (seed 47): 4 states, 0 history, 0 parallel, 0 with ids.
import { assign, setup } from "xstate";

export const machine = setup({
  guards: { isAdmin: ({ context }) => context.role === "admin" },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix47",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "load",
  on: { "user.click": { target: ".beta" } },
  states: {
    load: { tags: "busy", on: { reset: { target: "load", guard: "isAdmin", reenter: true } } },
    beta: { type: "final" },
    on: { on: { toggle: { target: "load" } } },
  },
});
