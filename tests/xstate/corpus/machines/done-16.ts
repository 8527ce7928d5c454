// done: an array of two invokes, both with ids.
import { fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
}).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: [{ src: "fetcher", id: "f", onDone: "ok" }, { src: "ticker", id: "t" }],
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
