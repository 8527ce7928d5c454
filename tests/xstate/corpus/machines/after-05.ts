// after: two named delays.
import { setup } from "xstate";

export const machine = setup({ delays: { short: 100, long: 5000 } }).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { short: "next", long: "late" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
