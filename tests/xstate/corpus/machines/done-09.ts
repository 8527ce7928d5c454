// done: one invoke with `onDone` and `onError`.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: { invoke: { src: "fetcher", onDone: "ok", onError: "failed" }, on: { cancel: "failed" } },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
