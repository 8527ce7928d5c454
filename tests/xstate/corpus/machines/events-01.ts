// events: a wildcard `*` event.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: { main: { on: { "*": "other" } }, other: { on: { back: "main" } }, third: {} },
});
