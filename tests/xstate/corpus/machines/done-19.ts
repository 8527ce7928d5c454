// done: an invoke of logic written in place.
import { fromPromise, setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: { invoke: { src: fromPromise(async () => 42), onDone: "ok" }, on: { cancel: "failed" } },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
