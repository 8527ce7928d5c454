// keys: a state key that is a JavaScript builtin name (`constructor`, `toString`).
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "builtin-keys",
  initial: "constructor",
  states: { constructor: { on: { go: "toString" } }, toString: {} },
});
