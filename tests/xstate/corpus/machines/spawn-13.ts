// spawn: `spawnChild` in the root's `entry`.
import { fromCallback, setup, spawnChild } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
}).createMachine({
  id: "root-spawn",
  entry: spawnChild("ticker", { id: "root-clock" }),
  initial: "a",
  states: { a: { on: { tick: "b" } }, b: {} },
});
