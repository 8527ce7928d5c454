// guards: `or` of `and` and a guard object, on an `on` transition with a fallback candidate.
import { and, or, setup } from "xstate";

export const machine = setup({
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    atLeast: ({ context }, params: { n: number }) => context.retries >= params.n,
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
              {
                guard: or([and(["isReady", "canRetry"]), { type: "atLeast", params: { n: 1 } }]),
                target: "open",
              },
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
