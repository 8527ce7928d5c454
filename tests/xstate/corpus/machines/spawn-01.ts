// spawn: `spawnChild` of a named actor in `entry`.
import { fromCallback, setup, spawnChild } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: spawnChild("ticker"), on: { stop: "idle" } },
  },
});
