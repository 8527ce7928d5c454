// parallel: an array of targets, one target in one region (the others enter their initial states), by `on`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "multi",
  initial: "idle",
  states: {
    idle: { on: { go: ["p.r1.z"] } },
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
