// done: a compound state's `onDone` with an object.
import { setup } from "xstate";

export const machine = setup({ actions: { track: () => {} } }).createMachine({
  id: "sdone",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "work",
  states: {
    work: {
      initial: "a",
      states: { a: { on: { finish: "b" } }, b: { type: "final" } },
      onDone: { target: "next", actions: "track" },
    },
    next: {},
    other: { id: "other-state", type: "final" },
  },
});
