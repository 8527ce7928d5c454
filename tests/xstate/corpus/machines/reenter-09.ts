// reenter: an `always` to a sibling, `reenter: true`.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "re",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "p",
  states: {
    p: {
      initial: "c1",
      states: {
        c1: { always: { guard: "isReady", target: "c2", reenter: true } },
        c2: { initial: "x", states: { x: {}, y: {} } },
      },
    },
    q: {},
  },
});
