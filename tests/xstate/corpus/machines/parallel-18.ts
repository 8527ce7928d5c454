// parallel: regions with events of the same name, and a parallel state's own transitions.
import { assign, setup } from "xstate";

export const machine = setup({ actions: { reset: assign({ retries: 0 }) } }).createMachine({
  id: "same-events",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "p",
  states: {
    p: {
      type: "parallel",
      on: { reset: { target: "p", reenter: true }, stop: "stopped" },
      states: {
        a: { initial: "one", states: { one: { on: { tick: "two" } }, two: { on: { tick: "one" } } } },
        b: { initial: "one", states: { one: { on: { tick: "two" } }, two: { type: "final" } } },
      },
    },
    stopped: { type: "final" },
  },
});
