// meta: a nested final state's `output` as a function, read by its parent's `onDone`.
import { setup } from "xstate";

export const machine = setup({ actions: { track: () => {} } }).createMachine({
  id: "out-fn",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "job",
  states: {
    job: {
      initial: "run",
      states: {
        run: { on: { end: "fin" } },
        fin: { type: "final", output: ({ context }) => context.retries },
      },
      onDone: { target: "report", actions: "track" },
    },
    report: { type: "final" },
  },
});
