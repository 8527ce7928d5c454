// reenter: a state to itself by key, `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "re",
  initial: "p",
  states: {
    p: {
      initial: "c1",
      states: {
        c1: { on: { again: { target: "c1", reenter: true } } },
        c2: { initial: "x", states: { x: {}, y: {} } },
      },
    },
    q: {},
  },
});
