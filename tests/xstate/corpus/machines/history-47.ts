// history: a shallow history whose default target is its parent's non-initial child, with a `reenter` transition into it.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "reenter-hist",
  initial: "p",
  states: {
    p: {
      initial: "one",
      states: { one: {}, two: {}, h: { type: "history", history: "shallow", target: "two" } },
      on: { again: { target: ".h", reenter: true } },
    },
  },
});
