// guards: an inline guard, on an `on` transition with a fallback candidate.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "guards",
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
            go: [{ guard: ({ context }) => context.retries > 1, target: "open" }, { target: "locked" }],
          },
        },
        open: {},
        locked: {},
      },
    },
  },
});
