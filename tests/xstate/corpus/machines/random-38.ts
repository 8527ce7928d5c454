// random: a mixed machine (seed 38): 4 states, 0 history, 0 parallel, 0 with ids.
import { and, assign, not, or, setup } from "xstate";

export const machine = setup({
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix38",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "gamma",
  states: {
    gamma: {
      on: { "user.click": { target: "shut", guard: "canRetry" } },
      always: { target: "shut", guard: or(["canRetry", not("hasItems")]) },
    },
    shut: {
      on: {
        "user.click": { target: "shut", guard: and(["isAdmin", "isReady"]) },
        cancel: { target: "#mix38.open", guard: and(["canRetry", "hasItems"]) },
        reset: { target: "#mix38.open", guard: and(["hasItems", "isReady"]) },
      },
    },
    open: { on: { reset: "gamma" } },
  },
});
