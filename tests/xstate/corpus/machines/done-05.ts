// done: a compound state's `onDone` with `#id`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "sdone",
  initial: "work",
  states: {
    work: {
      initial: "a",
      states: { a: { on: { finish: "b" } }, b: { type: "final" } },
      onDone: "#other-state",
    },
    next: {},
    other: { id: "other-state", type: "final" },
  },
});
