// targets: from the root, a child by `.key` (".b" from the root), on an `on` event.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "targets",
  initial: "a",
  states: {
    a: { initial: "a1", states: { a1: {}, a2: { initial: "x", states: { x: {}, y: {} } } } },
    b: { id: "bee", initial: "b1", states: { b1: {}, b2: {} } },
    c: { type: "final" },
  },
  on: { go: ".b" },
});
