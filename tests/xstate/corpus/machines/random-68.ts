// random: a mixed machine (seed 68): 4 states, 0 history, 0 parallel, 2 with ids.
import { and, assign, not, or, setup } from "xstate";

export const machine = setup({
  guards: {
    isReady: ({ context }) => context.ready,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix68",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "view",
  on: {
    back: [{ target: "#mix68.view", guard: or(["isAdmin", not("isReady")]) }, { target: "#mix68.wait" }],
    submit: { target: "#mix68.wait", guard: or(["hasItems", not("isAdmin")]) },
    go: ".wait",
  },
  states: {
    open: {
      id: "open-1",
      on: {
        cancel: [
          { target: "#mix68.wait", guard: ({ context }) => context.retries > 0 },
          { target: "#mix68.wait", guard: and(["isReady", "isAdmin"]) },
        ],
      },
    },
    wait: {
      id: "wait-2",
      on: {
        cancel: [{ target: "#mix68.view", guard: "isReady" }, { actions: "track" }],
        tick: "#mix68.wait",
      },
      after: { long: "open" },
    },
    view: { on: { reset: { actions: "track" } } },
  },
});
