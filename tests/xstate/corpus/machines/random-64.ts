// random: a mixed machine (seed 64): 5 states, 1 history, 0 parallel, 0 with ids.
import { not, or, setup } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
  actions: { track: () => {} },
}).createMachine({
  id: "mix64",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "off",
  on: { next: { actions: "track", guard: or(["isAdmin", not("isReady")]) } },
  states: {
    off: { on: { toggle: { target: "alpha" } } },
    edit: { type: "history", target: "alpha" },
    ready: { on: { "user.click": "#mix64.edit", next: { target: "#mix64.edit" } } },
    alpha: { on: { back: { target: "edit" } } },
  },
});
