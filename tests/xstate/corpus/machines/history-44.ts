// history: a history state at the root, targeted with `.h` from the root.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "root-hist",
  initial: "a",
  on: { restore: ".h" },
  states: { a: { on: { next: "b" } }, b: {}, h: { type: "history", target: "b" } },
});
