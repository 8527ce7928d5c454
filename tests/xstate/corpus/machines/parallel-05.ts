// parallel: an array of targets, `#machine.path` targets in two regions, by `always`.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "multi",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: { always: { guard: "isReady", target: ["#multi.p.r1.y", "#multi.p.r2.z"] } },
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
