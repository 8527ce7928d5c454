// spawn: `spawnChild` of a child machine written in place.
import { createMachine, setup, spawnChild } from "xstate";

export const machine = setup({}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: {
      entry: spawnChild(createMachine({ id: "inner", initial: "a", states: { a: {} } }), { id: "inner" }),
      on: { stop: "idle" },
    },
  },
});
