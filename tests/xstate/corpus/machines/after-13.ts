// after: a delay with a `not` guard.
import { not, setup } from "xstate";

export const machine = setup({ guards: { canRetry: ({ context }) => context.retries < 3 }, delays: { short: 100 } }).createMachine({
  id: "timer",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "start",
  states: {
    start: { after: { short: { guard: not("canRetry"), target: "late" } }, on: { cancel: "late" } },
    next: {},
    late: { id: "late-state", type: "final" },
  },
});
