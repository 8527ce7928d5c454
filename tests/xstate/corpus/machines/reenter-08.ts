// reenter: an `after` into itself, `reenter: true`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "re",
  initial: "p",
  states: {
    p: {
      initial: "c1",
      states: {
        c1: {},
        c2: {
          initial: "x",
          states: { x: {}, y: {} },
          after: { "100": { target: "c2", reenter: true } },
        },
      },
    },
    q: {},
  },
});
