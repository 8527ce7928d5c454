// history: `type: "history", history: "shallow"` with a default target by key, in a compound state; entered by `on.hist` from outside.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "hist",
  initial: "off",
  states: {
    off: { on: { power: "on.hist" } },
    on: {
      initial: "low",
      on: { power: "off" },
      states: {
        low: { on: { up: "high" } },
        high: { initial: "h1", states: { h1: { on: { next: "h2" } }, h2: {} }, on: { down: "low" } },
        hist: { type: "history", history: "shallow", target: "high" },
      },
    },
  },
});
