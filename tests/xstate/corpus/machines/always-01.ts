// always: a chain of guarded `always` candidates and a fallback, in a transient state.
import { setup } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
}).createMachine({
  id: "transient",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "check",
  states: {
    check: {
      always: [
        { guard: "isReady", target: "ready" },
        { guard: "isAdmin", target: "admin" },
        { target: "other" },
      ],
    },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
