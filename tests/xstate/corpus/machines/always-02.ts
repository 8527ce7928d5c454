// always: an unguarded `always` by a string, in a transient state.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "transient",
  initial: "check",
  states: { check: { always: "ready" }, ready: {}, admin: { id: "admin-state" }, other: { type: "final" } },
});
