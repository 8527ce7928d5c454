// always: `always` with a `not` guard, in a transient state.
import { not, setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "transient",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "check",
  states: {
    check: { always: { guard: not("isReady"), target: "other" } },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
