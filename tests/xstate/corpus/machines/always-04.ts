// always: a targetless `always` with an action, in a transient state.
import { assign, setup } from "xstate";

export const machine = setup({
  guards: { canRetry: ({ context }) => context.retries < 3 },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }) },
}).createMachine({
  id: "transient",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "check",
  states: {
    check: { always: { guard: "canRetry", actions: "bump" } },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
