// after: a delay on the root.
import { setup } from "xstate";

export const machine = setup({ delays: { long: 5000 } }).createMachine({
  id: "after-root",
  after: { long: ".done" },
  initial: "run",
  states: { run: {}, done: { type: "final" } },
});
