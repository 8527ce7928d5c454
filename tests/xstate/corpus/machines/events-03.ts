// events: an event name with dots.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "ev",
  initial: "main",
  states: { main: { on: { "user.logged.in": "other" } }, other: { on: { back: "main" } }, third: {} },
});
