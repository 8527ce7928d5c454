// done: a compound state's `onDone` with a string.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "sdone",
  initial: "work",
  states: {
    work: { initial: "a", states: { a: { on: { finish: "b" } }, b: { type: "final" } }, onDone: "next" },
    next: {},
    other: { id: "other-state", type: "final" },
  },
});
