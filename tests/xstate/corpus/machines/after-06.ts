// after: a named delay that is a function of context.
import { setup } from "xstate";

export const machine = setup({ delays: { backoff: ({ context }) => (context.retries + 1) * 1000 } }).createMachine({
  id: "timer",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "start",
  states: {
    start: { after: { backoff: "next" }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
