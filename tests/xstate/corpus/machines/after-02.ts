// after: an inline delay of 0.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { "0": "next" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
