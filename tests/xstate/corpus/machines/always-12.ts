// always: the root's own `always` (targetless, with an action) and a child's.
import { setup } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready, canRetry: ({ context }) => context.retries < 3 },
  actions: { track: () => {} },
}).createMachine({
  id: "root-always",
  context: { ready: false, retries: 0, role: "user", items: [] },
  always: { guard: "canRetry", actions: "track" },
  initial: "a",
  states: { a: { always: { guard: "isReady", target: "b" } }, b: {} },
});
