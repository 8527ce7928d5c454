// parallel: an array of targets, sibling key paths in three regions, by `always`.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "multi",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: { always: { guard: "isReady", target: ["p.r1.y", "p.r2.y", "p.r3.y"] } },
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
