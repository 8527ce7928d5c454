// history: `type: "history", history: "deep"` as a child of a parallel state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "par-hist",
  initial: "idle",
  states: {
    idle: { on: { resume: "#par-hist.work.memo" } },
    work: {
      type: "parallel",
      on: { pause: "idle" },
      states: {
        left: { initial: "l1", states: { l1: { on: { l: "l2" } }, l2: {} } },
        right: { initial: "r1", states: { r1: { on: { r: "r2" } }, r2: {} } },
        memo: { type: "history", history: "deep" },
      },
    },
  },
});
