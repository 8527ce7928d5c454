// spawn: `spawnChild` with an `id`.
import { fromCallback, setup, spawnChild } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: spawnChild("ticker", { id: "clock" }), on: { stop: "idle" } },
  },
});
