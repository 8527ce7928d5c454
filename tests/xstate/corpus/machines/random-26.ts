// random: a mixed machine (seed 26): 5 states, 0 history, 0 parallel, 1 with ids.
import { and, assign, setup } from "xstate";

export const machine = setup({
  guards: {
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix26",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "open.x",
  on: { back: { target: "#mix26.open", guard: "isAdmin" } },
  states: {
    "open.x": {
      on: {
        reset: { target: "#shut-2", reenter: true },
        go: [{ actions: "track", guard: and(["hasItems", "isAdmin"]) }, { target: "#mix26.shut" }],
        back: [
          { target: "#mix26.shut", guard: ({ context }) => context.retries > 0 },
          { target: "off", guard: ({ context }) => context.retries > 0 },
        ],
      },
    },
    shut: { id: "shut-2", type: "final" },
    off: { type: "final" },
    open: { type: "final" },
  },
});
