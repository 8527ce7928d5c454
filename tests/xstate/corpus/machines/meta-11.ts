// meta: a final state's `output` and the Machine's `output`.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "out",
  initial: "run",
  output: ({ context }) => ({ retries: context.retries }),
  states: { run: { on: { end: "fin" } }, fin: { type: "final", output: { status: "ok" } } },
});
