// keys: a deep tree (six levels), a `#machine.path` target to its leaf.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "deep",
  initial: "l1",
  on: { dive: "#deep.l1.l2.l3.l4.l5.l6" },
  states: {
    l1: {
      initial: "l2",
      states: {
        l2: {
          initial: "l3",
          states: {
            l3: {
              initial: "l4",
              states: {
                l4: {
                  initial: "l5",
                  states: { l5: { initial: "l6", states: { l6: {}, other: { on: { up: "#deep" } } } } },
                },
              },
            },
          },
        },
      },
    },
  },
});
