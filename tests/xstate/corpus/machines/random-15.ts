// random: a mixed machine (seed 15): 3 states, 0 history, 0 parallel, 0 with ids.
import { and, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
  },
}).createMachine({
  id: "mix15",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "on",
  on: {
    submit: [{ target: "#mix15.done", guard: and(["isReady", "canRetry"]) }, { target: ".on" }],
    next: { target: ".on", guard: ({ context }) => context.retries > 0 },
    go: { target: "#mix15.done" },
  },
  states: {
    on: { invoke: { src: "fetcher", onDone: { target: "#mix15.done" } }, on: { tick: "done" } },
    done: {
      on: { next: "on", back: { target: "on", guard: and(["isAdmin", "isReady"]) } },
      after: { "100": "#mix15.done", "2500": { target: "#mix15.on", guard: "canRetry" } },
    },
  },
});
