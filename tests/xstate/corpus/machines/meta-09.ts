// meta: an invoke with `id` and `systemId`.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "meta",
  initial: "main",
  states: {
    main: {
      invoke: { src: "fetcher", id: "load", systemId: "loader", onDone: "done" },
      on: { finish: "done" },
    },
    done: { type: "final" },
  },
});
