// spawn: `assign` with `spawn`.
import { assign, fromCallback, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
}).createMachine({
  id: "spawner",
  context: { ref: null },
  initial: "idle",
  states: {
    idle: { on: { start: "running" } },
    running: { entry: assign({ ref: ({ spawn }) => spawn("ticker") }), on: { stop: "idle" } },
  },
});
