// meta: a transition with `meta` and `description`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: {
    main: {
      on: {
        go: { target: "done", meta: { why: "user" }, description: "the user went" },
        finish: "done",
      },
    },
    done: { type: "final" },
  },
});
