// events: an array of string targets (two candidates).
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: { main: { on: { go: ["other", "main"] } }, other: { on: { back: "main" } }, third: {} },
});
