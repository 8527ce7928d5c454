// meta: `meta` on a state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "meta",
  initial: "main",
  states: {
    main: { meta: { label: "Loading", weight: 2 }, on: { finish: "done" } },
    done: { type: "final" },
  },
});
