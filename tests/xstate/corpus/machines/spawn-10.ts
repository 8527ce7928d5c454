// spawn: two `spawnChild` in one `entry`.
import { fromCallback, fromPromise, setup, spawnChild } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: {
      entry: [spawnChild("ticker", { id: "a" }), spawnChild("fetcher", { id: "b" })],
      on: { stop: "idle" },
    },
  },
});
