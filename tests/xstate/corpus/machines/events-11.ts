// events: the same target from events of different kinds.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: { main: { on: { "*": "third", go: "other" } }, other: { on: { back: "main" } }, third: {} },
});
