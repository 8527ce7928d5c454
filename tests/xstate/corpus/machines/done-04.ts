// done: a compound state's `onDone` with no target (an action only).
import { setup } from "xstate";

export const machine = setup({ actions: { track: () => {} } }).createMachine({
  id: "sdone",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "work",
  states: {
    work: {
      initial: "a",
      states: { a: { on: { finish: "b" } }, b: { type: "final" } },
      onDone: { actions: "track" },
    },
    next: {},
    other: { id: "other-state", type: "final" },
  },
});
