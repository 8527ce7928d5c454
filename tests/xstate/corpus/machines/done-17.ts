// done: an array of three invokes, the second with an id.
import { fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
}).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: [
        { src: "fetcher", onError: "failed" },
        { src: "saver", id: "s", input: { value: 1 }, onDone: "ok" },
        { src: "ticker" },
      ],
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
