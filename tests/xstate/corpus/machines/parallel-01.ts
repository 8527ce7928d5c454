// parallel: 2 regions of toggling states, each ending in a final state, and the parallel state's `onDone`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "par2",
  initial: "both",
  states: {
    both: {
      type: "parallel",
      states: {
        r: {
          initial: "r1",
          states: { r1: { on: { "r.next": "r2" } }, r2: { on: { "r.next": "r3" } }, r3: { type: "final" } },
        },
        s: {
          initial: "s1",
          states: { s1: { on: { "s.next": "s2" } }, s2: { on: { "s.next": "s3" } }, s3: { type: "final" } },
        },
      },
      onDone: "finished",
    },
    finished: { type: "final" },
  },
});
