// random: a mixed machine (seed 20): 11 states, 0 history, 0 parallel, 2 with ids.
import { and, assign, fromPromise, not, or, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: {
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix20",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  on: { go: { actions: "track" }, "user.click": ".edit", reset: { target: "#mix20.edit" } },
  states: {
    wait: {
      on: { reset: "#mix20.beta.done", tick: "#mix20.beta.alpha" },
      after: { long: { actions: "track" } },
    },
    load: { on: { reset: { target: "#mix20.edit.view" } } },
    edit: {
      initial: "view",
      states: {
        view: {
          id: "view-4",
          invoke: {
            src: "fetcher",
            onDone: { target: "#mix20.beta.alpha", guard: or(["isAdmin", not("canRetry")]) },
            onError: "#mix20.wait",
          },
          on: {
            "user.click": { target: "#mix20.beta.beta", guard: "hasItems" },
            tick: { target: "#mix20.beta", guard: "canRetry" },
          },
          after: { "1000": { target: "#mix20.edit", reenter: true } },
        },
        busy: { id: "busy-5" },
      },
    },
    beta: {
      initial: "beta",
      tags: ["busy", "t6"],
      after: { "100": { target: "#mix20.beta.beta" } },
      states: {
        beta: {
          on: {
            "ui.*": { target: "#mix20.load", guard: and(["isAdmin", "isAdmin"]) },
            go: { target: "beta", guard: not("canRetry") },
          },
        },
        idle: {},
        alpha: {},
        done: { type: "final" },
      },
    },
  },
});
