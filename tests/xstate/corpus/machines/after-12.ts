// after: a delay with an object target and a description.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "timer",
  initial: "start",
  states: {
    start: { after: { "750": { target: "next", description: "move on" } }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
