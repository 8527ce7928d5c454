// parallel: an array of targets, `#machine.path` targets in two regions, by `on`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "multi",
  initial: "idle",
  states: {
    idle: { on: { go: ["#multi.p.r1.y", "#multi.p.r2.z"] } },
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
