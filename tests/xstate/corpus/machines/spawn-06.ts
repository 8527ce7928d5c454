// spawn: `spawnChild` with `input`.
import { fromPromise, setup, spawnChild } from "xstate";

export const machine = setup({ actors: { saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value) } }).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: spawnChild("saver", { id: "s", input: { value: 7 } }), on: { stop: "idle" } },
  },
});
