// random: a mixed machine (seed 62): 3 states, 0 history, 0 parallel, 0 with ids.
import { and, assign, not, setup } from "xstate";

export const machine = setup({
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix62",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  on: {
    "ui.*": [
      { actions: "track", guard: and(["isReady", "hasItems"]) },
      { target: "#mix62.busy", guard: "isReady" },
    ],
    tick: [
      { actions: "track", guard: and(["hasItems", "hasItems"]), reenter: true },
      { target: "#mix62.gamma" },
    ],
    reset: ".busy",
  },
  states: {
    busy: {},
    gamma: {
      on: {
        next: "busy",
        submit: "#mix62.busy",
        toggle: [{ target: "#mix62.gamma", guard: not("canRetry") }, { target: "busy", guard: "canRetry" }],
      },
    },
  },
});
