// guards: guards on `after`, `always`, a state's `onDone` and an invoke's `onDone`.
import { and, fromPromise, not, or, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
}).createMachine({
  id: "guard-triggers",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "a",
  states: {
    a: {
      after: { "100": { guard: "isReady", target: "b" } },
      always: { guard: not("canRetry"), target: "c" },
    },
    b: {
      initial: "b1",
      states: { b1: { on: { end: "b2" } }, b2: { type: "final" } },
      onDone: { guard: or(["isAdmin","hasItems"]), target: "c" },
    },
    c: { invoke: { src: "fetcher", onDone: { guard: and(["isReady","canRetry"]), target: "d" } } },
    d: {},
  },
});
