// parallel: an array of targets, targets in its own and another region, by `on`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "multi",
  initial: "idle",
  states: {
    idle: {},
    p: {
      type: "parallel",
      states: {
        r1: {
          initial: "x",
          states: { x: { on: { go: ["#multi.p.r1.y", "#multi.p.r2.y"] } }, y: {}, z: {} },
        },
        r2: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r3: { initial: "x", states: { x: {}, y: {} } },
      },
    },
  },
});
