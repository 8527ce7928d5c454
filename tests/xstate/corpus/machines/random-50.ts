// random: a mixed machine (seed 50): 4 states, 1 history, 0 parallel, 0 with ids.
import { assign, setup } from "xstate";

export const machine = setup({ delays: { long: 5000 }, actions: { track: () => {}, reset: assign({ retries: 0 }) } }).createMachine({
  id: "mix50",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "load",
  states: {
    load: { on: { tick: { actions: "track" }, "user.click": "ready", cancel: "#mix50.open" } },
    open: { on: { reset: { actions: "track" } }, after: { long: "load" } },
    ready: { type: "history" },
  },
});
