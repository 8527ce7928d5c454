// parallel: an array of targets, sibling key paths in three regions, by `on`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "multi",
  initial: "idle",
  states: {
    idle: { on: { go: ["p.r1.y", "p.r2.y", "p.r3.y"] } },
    p: {
      type: "parallel",
      states: {
        r1: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r2: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r3: { initial: "x", states: { x: {}, y: {} } },
      },
    },
  },
});
