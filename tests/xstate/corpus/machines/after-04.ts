// after: a named delay from setup.
import { setup } from "xstate";

export const machine = setup({ delays: { short: 100 } }).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { short: "next" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
