// parallel: regions that invoke actors, each with `onDone` into its region's final state.
import { fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
}).createMachine({
  id: "par-invoke",
  type: "parallel",
  states: {
    fetch: {
      initial: "loading",
      states: {
        loading: { invoke: { src: "fetcher", onDone: "ok", onError: "failed" } },
        ok: { type: "final" },
        failed: {},
      },
    },
    tick: {
      initial: "on",
      states: {
        on: { invoke: { src: "ticker", id: "clock" }, on: { tick: { target: "on", reenter: true } } },
      },
    },
  },
});
