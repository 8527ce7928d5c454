// after: a delay back into itself with `reenter`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { "1000": { target: "start", reenter: true } }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
