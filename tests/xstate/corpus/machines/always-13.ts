// always: `always` in each region of a parallel state, with `stateIn` of the other region.
import { setup, stateIn } from "xstate";

export const machine = setup({}).createMachine({
  id: "region-always",
  type: "parallel",
  states: {
    a: { initial: "off", states: { off: { on: { flip: "on" } }, on: {} } },
    b: {
      initial: "wait",
      states: { wait: { always: { guard: stateIn("#region-always.a.on"), target: "go" } }, go: {} },
    },
  },
});
