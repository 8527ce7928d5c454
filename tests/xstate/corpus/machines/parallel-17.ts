// parallel: a parallel state nested in a region of another parallel state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "nested-par",
  type: "parallel",
  states: {
    outerA: {
      type: "parallel",
      states: {
        in1: { initial: "a", states: { a: { on: { t: "b" } }, b: {} } },
        in2: { initial: "a", states: { a: { on: { t: "b" } }, b: {} } },
      },
    },
    outerB: { initial: "idle", states: { idle: { on: { go: "busy" } }, busy: { on: { go: "idle" } } } },
  },
});
