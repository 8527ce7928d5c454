// guards: `and` of `or` and `not`, on an `on` transition with a fallback candidate.
import { and, not, or, setup } from "xstate";

export const machine = setup({
  guards: {
    isReady: ({ context }) => context.ready,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
}).createMachine({
  id: "guards",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  states: {
    flags: {
      initial: "off",
      states: {
        off: { id: "flags-off", on: { flip: "on" } },
        on: {
          id: "flags-on",
          initial: "dim",
          states: { dim: { on: { up: "bright" } }, bright: {} },
          on: { flip: "off" },
        },
      },
    },
    door: {
      initial: "shut",
      states: {
        shut: {
          on: {
            go: [
              { guard: and([or(["isReady", "isAdmin"]), not("hasItems")]), target: "open" },
              { target: "locked" },
            ],
          },
        },
        open: {},
        locked: {},
      },
    },
  },
});
