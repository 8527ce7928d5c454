// targets: a child of a state by `#id.child` ("#bee.b2" from "a.a2.x"), on an `on` event with `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "targets",
  initial: "a",
  states: {
    a: {
      initial: "a1",
      states: {
        a1: {},
        a2: { initial: "x", states: { x: { on: { go: { target: "#bee.b2", reenter: true } } }, y: {} } },
      },
    },
    b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
    c: { type: "final" },
  },
});
