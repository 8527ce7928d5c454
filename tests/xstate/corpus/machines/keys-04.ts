// keys: integer-like keys in a nested state, mixed with named keys written before them.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "mixed",
  initial: "p",
  states: { p: { initial: "b", states: { b: { on: { go: "3" } }, "3": {}, a: {}, "0": {} } } },
});
