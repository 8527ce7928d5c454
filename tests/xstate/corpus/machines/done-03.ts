// done: a compound state's `onDone` with guarded candidates.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "sdone",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "work",
  states: {
    work: {
      initial: "a",
      states: { a: { on: { finish: "b" } }, b: { type: "final" } },
      onDone: [{ guard: "isReady", target: "next" }, { target: "other" }],
    },
    next: {},
    other: { id: "other-state", type: "final" },
  },
});
