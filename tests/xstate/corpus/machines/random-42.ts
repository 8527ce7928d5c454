// random: a mixed machine (seed 42): 3 states, 0 history, 0 parallel, 2 with ids.
import { setup, stateIn } from "xstate";

export const machine = setup({ guards: { canRetry: ({ context }) => context.retries < 3 }, actions: { track: () => {} } }).createMachine({
  id: "mix42",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "beta",
  on: {
    next: { actions: "track" },
    back: [{ target: "#mix42.beta", guard: "canRetry" }, { target: "#load-2", guard: stateIn("#load-2") }],
    submit: { actions: "track", guard: ({ context }) => context.retries > 0 },
  },
  after: { "1000": "#mix42.load" },
  states: {
    beta: { id: "beta-1", on: { "user.click": { target: "#mix42.beta" } } },
    load: { id: "load-2", type: "final" },
  },
});
