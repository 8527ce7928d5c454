// realistic: a traffic light with a pedestrian crossing (nested states, `after` by name and by ms).
import { setup } from "xstate";

export const machine = setup({ delays: { short: 100, long: 5000 } }).createMachine({
  id: "light",
  initial: "green",
  states: {
    green: { after: { long: "yellow" }, on: { emergency: "red" } },
    yellow: { after: { "1000": "red" } },
    red: {
      initial: "walk",
      states: {
        walk: { after: { short: "wait" } },
        wait: { after: { short: "stop" } },
        stop: { type: "final" },
      },
      onDone: "green",
    },
  },
});
