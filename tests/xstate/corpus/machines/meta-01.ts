// meta: `tags` as a string.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: { main: { tags: "busy", on: { finish: "done" } }, done: { type: "final" } },
});
