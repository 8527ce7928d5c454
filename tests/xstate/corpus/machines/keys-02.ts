// keys: state keys with spaces, dashes and non-ASCII letters.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "odd",
  initial: "first step",
  states: {
    "first step": { on: { go: "zweite-Stufe" } },
    "zweite-Stufe": { on: { go: "dritte é" } },
    "dritte é": {},
  },
});
