// reenter: a parent to a grandchild, no `reenter`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "re",
  initial: "p",
  states: {
    p: {
      initial: "c1",
      states: { c1: {}, c2: { initial: "x", states: { x: {}, y: {} } } },
      on: { again: { target: ".c2.y" } },
    },
    q: {},
  },
});
