// after: a delay to `#id`.
import { setup } from "xstate";

export const machine = setup({ delays: { long: 5000 } }).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { long: "#late-state" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
