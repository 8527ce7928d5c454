// done: invokes on a compound state and on its child, with `onDone` on each.
import { fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
}).createMachine({
  id: "inv-nested",
  initial: "session",
  states: {
    session: {
      invoke: { src: "ticker", id: "heartbeat" },
      initial: "fetching",
      states: { fetching: { invoke: { src: "fetcher", onDone: "shown" } }, shown: {} },
      on: { logout: "out" },
    },
    out: { type: "final" },
  },
});
