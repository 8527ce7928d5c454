// done: an invoke with guarded `onDone` candidates.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: {
        src: "fetcher",
        onDone: [{ guard: ({ event }) => event.output.ok, target: "ok" }, { target: "failed" }],
      },
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
