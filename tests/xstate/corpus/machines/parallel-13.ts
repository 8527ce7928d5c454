// parallel: an array of targets, a target in another region from a region, by `always`.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "multi",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: {},
    p: {
      type: "parallel",
      states: {
        r1: {
          initial: "x",
          states: { x: {}, y: {}, z: {} },
          always: { guard: "isReady", target: ["#multi.p.r2.z"] },
        },
        r2: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r3: { initial: "x", states: { x: {}, y: {} } },
      },
    },
  },
});
