// always: an `always` with an inline guard, in a transient state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "transient",
  initial: "check",
  states: {
    check: { always: { guard: ({ context }) => context.retries > 2, target: "other" } },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
