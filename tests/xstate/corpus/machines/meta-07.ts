// meta: `tags`, `meta` and `description` together.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: {
    main: { tags: ["a", "b"], meta: { x: 1 }, description: "all three", on: { finish: "done" } },
    done: { type: "final" },
  },
});
