// targets: a sibling inside a nested compound state ("x" from "a.a2.y"), on a guarded `always`.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "targets",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "a",
  states: {
    a: {
      initial: "a1",
      states: {
        a1: {},
        a2: { initial: "x", states: { x: {}, y: { always: { guard: "isReady", target: "x" } } } },
      },
    },
    b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
    c: { type: "final" },
  },
});
