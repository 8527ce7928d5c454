// parallel: 4 regions of toggling states, each ending in a final state, and the parallel state's `onDone`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "par4",
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
        t: {
          initial: "t1",
          states: { t1: { on: { "t.next": "t2" } }, t2: { on: { "t.next": "t3" } }, t3: { type: "final" } },
        },
        u: {
          initial: "u1",
          states: { u1: { on: { "u.next": "u2" } }, u2: { on: { "u.next": "u3" } }, u3: { type: "final" } },
        },
      },
      onDone: "finished",
    },
    finished: { type: "final" },
  },
});
