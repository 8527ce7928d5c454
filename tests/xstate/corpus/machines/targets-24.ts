// targets: a child of a state by `#id.child` ("#bee.b2" from "a.a2.x"), on a guarded `always`.
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
        a2: { initial: "x", states: { x: { always: { guard: "isReady", target: "#bee.b2" } }, y: {} } },
      },
    },
    b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
    c: { type: "final" },
  },
});
