// events: guarded candidates and a fallback.
import { setup } from "xstate";

export const machine = setup({
  guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
}).createMachine({
  id: "ev",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "main",
  states: {
    main: {
      on: { go: [{ guard: "isReady", target: "other" }, { guard: "isAdmin", target: "main" }, "third"] },
    },
    other: { on: { back: "main" } },
    third: {},
  },
});
