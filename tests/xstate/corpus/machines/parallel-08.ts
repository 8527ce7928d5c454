// parallel: an array of targets, `.child` targets in two regions from the parallel state, by `on`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "multi",
  initial: "idle",
  states: {
    idle: {},
    p: {
      type: "parallel",
      states: {
        r1: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r2: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r3: { initial: "x", states: { x: {}, y: {} } },
      },
      on: { go: [".r1.z", ".r2.y"] },
    },
  },
});
