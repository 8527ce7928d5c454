// always: a compound state with `always` and an initial child that has its own.
import { setup } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
}).createMachine({
  id: "always-both",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "p",
  states: {
    p: {
      always: { guard: "isAdmin", target: "q" },
      initial: "c",
      states: { c: { always: { guard: "isReady", target: "d" } }, d: {} },
    },
    q: {},
  },
});
