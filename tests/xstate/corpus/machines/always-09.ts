// always: `always` beside `on` and `after`, in a transient state.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "transient",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "check",
  states: {
    check: {
      always: { guard: "isReady", target: "ready" },
      on: { skip: "other" },
      after: { "1000": "admin" },
    },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
