// done: an invoke on the root.
import { fromCallback, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
}).createMachine({
  id: "inv-root",
  invoke: { src: "ticker", id: "root-ticker" },
  initial: "a",
  states: { a: { on: { tick: "b" } }, b: {} },
});
