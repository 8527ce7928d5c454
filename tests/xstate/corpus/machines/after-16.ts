// after: delays on a compound state and on its child.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "after-nested",
  initial: "p",
  states: {
    p: { after: { "10000": "timeout" }, initial: "c", states: { c: { after: { "100": "d" } }, d: {} } },
    timeout: { type: "final" },
  },
});
