// history: a history state targeted from an `after` and from an `always`.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "timed-hist",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "run",
  states: {
    run: {
      initial: "s1",
      states: { s1: { on: { n: "s2" } }, s2: {}, h: { type: "history" } },
      on: { pause: "paused" },
    },
    paused: { after: { "2000": "run.h" }, always: { guard: "isReady", target: "run.h" } },
  },
});
