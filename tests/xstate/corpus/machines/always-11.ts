// always: a nested transient state that leaves its parent by `#id` and by a parent's sibling path.
import { setup } from "xstate";

export const machine = setup({ guards: { isReady: ({ context }) => context.ready } }).createMachine({
  id: "nested-always",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "outer",
  states: {
    outer: {
      initial: "inner",
      states: {
        inner: { always: [{ guard: "isReady", target: "#nested-always.done" }, { target: "wait" }] },
        wait: {},
      },
    },
    done: { type: "final" },
  },
});
