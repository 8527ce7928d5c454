// guards: `and` with an inline guard, on an `on` transition with a fallback candidate.
import { and, setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
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
              { guard: and(["isReady", ({ context }) => context.items.length > 2]), target: "open" },
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
