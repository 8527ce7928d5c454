// random: a mixed machine (seed 27): 3 states, 0 history, 0 parallel, 1 with ids.
import { assign, setup, stateIn } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix27",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  on: { cancel: ".done", reset: { target: ".done", reenter: true }, "ui.*": "#mix27.done" },
  states: {
    busy: {
      on: {
        go: [
          { target: ".", guard: "isReady" },
          { target: "#done-2", guard: ({ context }) => context.retries > 0 },
        ],
        back: [{ actions: "track", guard: stateIn("#done-2") }, { target: "#mix27.busy" }],
        reset: { target: "done", reenter: true },
      },
    },
    done: {
      id: "done-2",
      on: {
        cancel: [{ target: "busy", guard: stateIn("#done-2"), reenter: true }, { target: "#done-2" }],
        "user.click": "busy",
        "ui.*": "#done-2",
      },
    },
  },
});
