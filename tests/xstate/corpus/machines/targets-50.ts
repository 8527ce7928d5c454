// targets: a state in another branch by `#machine.path` ("#targets.a.a2" from "b.b2"), on an `on` event with `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "targets",
  initial: "a",
  states: {
    a: { initial: "a1", states: { a1: {}, a2: { initial: "x", states: { x: {}, y: {} } } } },
    b: {
      id: "bee",
      initial: "b1",
      states: { b1: {}, b2: { on: { go: { target: "#targets.a.a2", reenter: true } } } },
    },
    c: { type: "final" },
  },
});
