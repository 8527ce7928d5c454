// reenter: a grandchild to its ancestor by `#id`, `reenter: true`.
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
          states: { x: { on: { again: { target: "#re.p", reenter: true } } }, y: {} },
        },
      },
    },
    q: {},
  },
});
