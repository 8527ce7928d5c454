// meta: an invoke with `systemId`.
import { fromCallback, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
}).createMachine({
  id: "meta",
  initial: "main",
  states: {
    main: { invoke: { src: "ticker", systemId: "clock" }, on: { finish: "done" } },
    done: { type: "final" },
  },
});
