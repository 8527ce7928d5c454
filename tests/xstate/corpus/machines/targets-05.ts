// targets: a sibling's descendant by a key path ("a2.y" from "a.a1"), on an `on` event with `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "targets",
  initial: "a",
  states: {
    a: {
      initial: "a1",
      states: {
        a1: { on: { go: { target: "a2.y", reenter: true } } },
        a2: { initial: "x", states: { x: {}, y: {} } },
      },
    },
    b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
    c: { type: "final" },
  },
});
