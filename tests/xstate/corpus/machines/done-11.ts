// done: one invoke with `input` and `systemId`.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: { src: "saver", id: "save", systemId: "saver", input: { value: 3 }, onDone: "ok" },
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
