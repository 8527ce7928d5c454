// always: an `always` array of strings, in a transient state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "transient",
  initial: "check",
  states: {
    check: { always: ["ready", "other"] },
    ready: {},
    admin: { id: "admin-state" },
    other: { type: "final" },
  },
});
