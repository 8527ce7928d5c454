// spawn: `spawnChild` of a child machine.
import { createMachine, setup, spawnChild } from "xstate";

const child = createMachine({
  id: "child",
  initial: "running",
  states: {
    running: { on: { stop: "done" } },
    done: { type: "final" },
  },
});

export const machine = setup({ actors: { child: child } }).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: spawnChild("child", { id: "kid" }), on: { stop: "idle" } },
  },
});
