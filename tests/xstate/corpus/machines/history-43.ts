// history: two history states (shallow and deep) in one parent, entered by events.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "two-hist",
  initial: "out",
  states: {
    out: { on: { shallow: "in.hs", deep: "in.hd" } },
    in: {
      initial: "a",
      on: { leave: "out" },
      states: {
        a: { initial: "a1", states: { a1: { on: { go: "a2" } }, a2: {} }, on: { b: "b" } },
        b: {},
        hs: { type: "history" },
        hd: { type: "history", history: "deep" },
      },
    },
  },
});
