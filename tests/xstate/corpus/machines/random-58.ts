// random: a mixed machine (seed 58): 4 states, 1 history, 1 parallel, 1 with ids.
import { assign, fromCallback, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix58",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  tags: ["busy", "t0"],
  on: { reset: ".hist" },
  states: {
    ready: { invoke: { src: "ticker" } },
    idle: { id: "idle-2", on: { submit: "idle" } },
    hist: { id: "hist-3", type: "history" },
  },
});
