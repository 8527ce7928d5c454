// events: an `on` key that is also a JavaScript builtin name (`toString`, `constructor`).
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "builtin-ev",
  initial: "a",
  states: { a: { on: { toString: "b", constructor: "b" } }, b: {} },
});
