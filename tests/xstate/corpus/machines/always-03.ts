// always: an `always` object with a target, in a transient state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "transient",
  initial: "check",
  states: {
    check: { always: { target: "ready" } },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
