// meta: a `description`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: { main: { description: "waits for the server", on: { finish: "done" } }, done: { type: "final" } },
});
