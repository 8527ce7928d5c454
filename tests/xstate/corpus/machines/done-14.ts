// done: an invoke with `onError` to `#id`.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: { invoke: { src: "fetcher", onError: "#fail-state" }, on: { cancel: "failed" } },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
