// guards: `not` of `and`, on an `on` transition with a fallback candidate.
import { and, not, setup } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
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
            go: [{ guard: not(and(["isReady", "isAdmin"])), target: "open" }, { target: "locked" }],
          },
        },
        open: {},
        locked: {},
      },
    },
  },
});
