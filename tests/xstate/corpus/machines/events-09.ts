// events: a transition with an empty object (targetless).
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: { main: { on: { poke: {} } }, other: { on: { back: "main" } }, third: {} },
});
