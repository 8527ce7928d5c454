// done: a parallel state's `onDone` with guarded candidates.
import { setup } from "xstate";

export const machine = setup({ guards: { hasItems: ({ context }) => context.items.length > 0 } }).createMachine({
  id: "par-done",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "p",
  states: {
    p: {
      type: "parallel",
      onDone: [{ guard: "hasItems", target: "withItems" }, { target: "empty" }],
      states: {
        a: { initial: "x", states: { x: { on: { a: "y" } }, y: { type: "final" } } },
        b: { initial: "x", states: { x: { on: { b: "y" } }, y: { type: "final" } } },
      },
    },
    withItems: {},
    empty: {},
  },
});
