// done: `onDone` of a nested compound state inside another compound state with its own `onDone`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "nested-done",
  initial: "outer",
  states: {
    outer: {
      initial: "inner",
      states: {
        inner: { initial: "i", states: { i: { on: { end: "f" } }, f: { type: "final" } }, onDone: "fin" },
        fin: { type: "final" },
      },
      onDone: "complete",
    },
    complete: { type: "final" },
  },
});
