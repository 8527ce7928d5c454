// spawn: `spawnChild` with an `id` and `systemId`.
import { fromPromise, setup, spawnChild } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } }).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: spawnChild("fetcher", { id: "bg", systemId: "background" }), on: { stop: "idle" } },
  },
});
