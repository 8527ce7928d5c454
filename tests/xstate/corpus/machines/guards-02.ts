// guards: a guard object with params, on an `on` transition with a fallback candidate.
import { setup } from "xstate";

export const machine = setup({ guards: { atLeast: ({ context }, params: { n: number }) => context.retries >= params.n } }).createMachine({
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
            go: [{ guard: { type: "atLeast", params: { n: 2 } }, target: "open" }, { target: "locked" }],
          },
        },
        open: {},
        locked: {},
      },
    },
  },
});
