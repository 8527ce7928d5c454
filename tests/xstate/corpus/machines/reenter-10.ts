// reenter: the root to a child, `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "re",
  initial: "p",
  states: {
    p: { initial: "c1", states: { c1: {}, c2: { initial: "x", states: { x: {}, y: {} } } } },
    q: {},
  },
  on: { restart: { target: ".p", reenter: true } },
});
