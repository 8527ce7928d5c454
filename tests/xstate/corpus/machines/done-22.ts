// done: an invoke array with the same `src` twice.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: [
        { src: "fetcher", id: "one", onDone: "ok" },
        { src: "fetcher", id: "two", onError: "failed" },
      ],
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
