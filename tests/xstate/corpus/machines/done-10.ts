// done: one invoke with an `id`.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: { src: "fetcher", id: "load", onDone: "ok", onError: "failed" },
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
