// parallel: an array of targets, targets in its own and another region, by `always`.
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
          states: {
            x: { always: { guard: "isReady", target: ["#multi.p.r1.y", "#multi.p.r2.y"] } },
            y: {},
            z: {},
          },
        },
        r2: { initial: "x", states: { x: {}, y: {}, z: {} } },
        r3: { initial: "x", states: { x: {}, y: {} } },
      },
    },
  },
});
