// keys: ids with dashes, colons and slashes, and `#` targets to them.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ids",
  initial: "a",
  states: {
    a: { id: "step-1", on: { go: "#step:2" } },
    b: { id: "step:2", on: { go: "#step/3" } },
    c: { id: "step/3", on: { go: "#step-1" } },
  },
});
