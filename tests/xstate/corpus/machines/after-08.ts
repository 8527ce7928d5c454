// after: a guarded array of candidates on one delay.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "timer",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "start",
  states: {
    start: {
      after: { "1000": [{ guard: "isReady", target: "next" }, { target: "late" }] },
      on: { cancel: "late" },
    },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
