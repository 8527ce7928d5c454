// events: a transition whose target is written as an array of one.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: { main: { on: { go: { target: ["other"] } } }, other: { on: { back: "main" } }, third: {} },
});
