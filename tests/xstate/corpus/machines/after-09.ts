// after: a targetless delay with an action.
import { assign, setup } from "xstate";

export const machine = setup({ actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }) } }).createMachine({
  id: "timer",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "start",
  states: {
    start: { after: { "1000": { actions: "bump" } }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
