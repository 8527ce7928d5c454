// after: delays in two regions of a parallel state.
import { setup } from "xstate";

export const machine = setup({ delays: { short: 100, long: 5000 } }).createMachine({
  id: "after-par",
  type: "parallel",
  states: {
    r: { initial: "a", states: { a: { after: { "100": "b" } }, b: {} } },
    s: { initial: "a", states: { a: { after: { short: "b" } }, b: { after: { long: "a" } } } },
  },
});
