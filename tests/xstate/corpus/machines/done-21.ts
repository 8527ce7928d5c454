// done: an invoke with `onDone` and `reenter`.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: { src: "fetcher", onDone: { target: "loading", reenter: true } },
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
