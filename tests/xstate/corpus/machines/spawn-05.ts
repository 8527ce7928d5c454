// spawn: `spawnChild` of logic written in place.
import { fromPromise, setup, spawnChild } from "xstate";

export const machine = setup({}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: spawnChild(fromPromise(async () => 1)), on: { stop: "idle" } },
  },
});
