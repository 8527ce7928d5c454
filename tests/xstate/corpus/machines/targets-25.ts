// targets: a deep state by the Machine's id and its key path (`#id.a.b`) ("#targets.a.a2.y" from "b.b1"), on an `on` event.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "targets",
  initial: "a",
  states: {
    a: { initial: "a1", states: { a1: {}, a2: { initial: "x", states: { x: {}, y: {} } } } },
    b: { id: "bee", initial: "b1", states: { b1: { on: { go: "#targets.a.a2.y" } }, b2: {} } },
    c: { type: "final" },
  },
});
