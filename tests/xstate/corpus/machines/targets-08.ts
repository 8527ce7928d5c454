// targets: a child by `.key` (".a2" from "a"), on an `on` event with `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "targets",
  initial: "a",
  states: {
    a: {
      initial: "a1",
      states: { a1: {}, a2: { initial: "x", states: { x: {}, y: {} } } },
      on: { go: { target: ".a2", reenter: true } },
    },
    b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
    c: { type: "final" },
  },
});
