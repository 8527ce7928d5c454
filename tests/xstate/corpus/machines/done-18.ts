// done: an array of invokes, each with `onDone` and `onError`.
import { fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value),
  },
}).createMachine({
  id: "inv",
  initial: "loading",
  states: {
    loading: {
      invoke: [
        { src: "fetcher", onDone: "ok", onError: "failed" },
        { src: "saver", input: { value: 2 }, onDone: "ok", onError: "failed" },
      ],
      on: { cancel: "failed" },
    },
    ok: { type: "final" },
    failed: { id: "fail-state" },
  },
});
