// after: named and inline delays together.
import { setup } from "xstate";

export const machine = setup({ delays: { short: 100 } }).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { "2000": "late", short: "next" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
