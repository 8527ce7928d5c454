// meta: `tags` as an array.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: { main: { tags: ["busy", "visible"], on: { finish: "done" } }, done: { type: "final" } },
});
