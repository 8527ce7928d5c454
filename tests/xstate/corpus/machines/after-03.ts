// after: two inline delays.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { "500": "next", "3000": "late" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
