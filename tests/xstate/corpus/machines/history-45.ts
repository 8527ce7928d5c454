// history: a deep history in a nested compound state, defaulting to a deep state by key path.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "nested-hist",
  initial: "outer",
  states: {
    outer: {
      initial: "mid",
      states: {
        mid: {
          initial: "x",
          states: {
            x: { initial: "x1", states: { x1: { on: { go: "x2" } }, x2: {} } },
            y: {},
            h: { history: "deep", target: "x.x2" },
          },
          on: { swap: ".y" },
        },
      },
      on: { out: "away" },
    },
    away: { on: { back: "outer.mid.h" } },
  },
});
