// after: a delay of 1500 written as a string key.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { "1500": "next" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
