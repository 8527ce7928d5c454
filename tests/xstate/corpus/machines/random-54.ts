// random: a mixed machine (seed 54): 8 states, 1 history, 1 parallel, 0 with ids.
import { and, assign, setup } from "xstate";

export const machine = setup({
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
  },
  delays: { short: 100, long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix54",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  after: { long: { actions: "track", reenter: true } },
  states: {
    on: {
      initial: "load",
      on: {
        "ui.*": { target: "#mix54.on.load" },
        next: { target: "#mix54.shut.load", guard: and(["isReady", "isReady"]) },
        reset: [{ target: "#mix54.on.edit", guard: and(["isReady", "canRetry"]) }, { actions: "track" }],
      },
      states: {
        load: {
          tags: ["busy", "t2"],
          on: {
            cancel: { target: "#mix54.shut.ready", guard: ({ context }) => context.retries > 0 },
            go: { target: "#mix54.shut.wait", guard: and(["canRetry", "canRetry"]) },
            submit: { actions: "track", reenter: true },
          },
          always: { target: "#mix54.on.load", guard: ({ context }) => context.retries > 0 },
        },
        edit: { type: "history", history: "shallow" },
      },
    },
    shut: {
      initial: "ready",
      on: { cancel: [{ target: "#mix54.shut.load", guard: "isAdmin" }, { target: "#mix54.shut.load" }] },
      states: {
        wait: {
          on: {
            go: { actions: "track" },
            cancel: [
              { target: "#mix54.shut", guard: ({ context }) => context.retries > 0 },
              { target: "#mix54.shut.load", guard: "canRetry" },
            ],
            tick: "load",
          },
          after: { short: { target: "#mix54.on.edit" } },
        },
        ready: { on: { tick: { target: "#mix54.shut.load" }, reset: "load" } },
        load: {},
      },
    },
  },
});
