// spawn: `spawnChild` beside a named action in an `entry` array.
import { fromCallback, setup, spawnChild } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  actions: { track: () => {} },
}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: ["track", spawnChild("ticker", { id: "t" })], on: { stop: "idle" } },
  },
});
