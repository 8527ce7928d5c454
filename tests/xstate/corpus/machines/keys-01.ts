// keys: integer-like state keys written out of order (JavaScript orders them ascending), and an initial of one.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "nums",
  initial: "2",
  states: { "2": { on: { go: "10" } }, "10": {}, "1": { on: { go: "2" } } },
});
