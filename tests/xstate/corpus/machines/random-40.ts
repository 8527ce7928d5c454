// random: a mixed machine (seed 40): 19 states, 1 history, 0 parallel, 5 with ids.
import { and, assign, fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix40",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  on: {
    tick: [
      { target: "#mix40.beta.idle", guard: or(["isAdmin", not("isReady")]) },
      { target: ".idle.busy" },
    ],
    go: [
      { target: "#mix40.idle.on.view", guard: and(["isAdmin", "isReady"]) },
      { target: "#mix40.wait.done" },
    ],
  },
  states: {
    beta: {
      initial: "on",
      on: { reset: { target: "beta.idle", guard: "isReady" } },
      states: {
        on: {
          on: {
            next: [
              { target: "#mix40.wait.done", guard: "hasItems" },
              { target: "#mix40.beta.idle", reenter: true },
            ],
            toggle: "#open-8",
          },
        },
        idle: {
          on: {
            go: [
              { target: "#mix40.idle.busy", guard: "isAdmin" },
              { target: "#on-14.beta", guard: and(["isReady", "isReady"]) },
            ],
            reset: { target: "#mix40.idle.on", reenter: true },
            "user.click": [
              { target: "#mix40.wait.done.off", guard: ({ context }) => context.retries > 0 },
              { target: "#mix40.wait.done.done" },
            ],
          },
          after: { "1000": "." },
        },
        view: {},
        alpha: { on: { next: { target: "#mix40.beta" }, "ui.*": "#mix40.idle" } },
      },
    },
    off: { on: { back: { target: "#mix40.wait.done.off" }, reset: { target: "#mix40.wait.on" } } },
    wait: {
      initial: "open",
      states: {
        open: { id: "open-8" },
        on: { type: "history", history: "deep" },
        done: {
          initial: "done",
          on: { reset: "#mix40.beta" },
          states: {
            done: {
              id: "done-11",
              on: {
                "ui.*": [
                  { target: "#mix40.beta.alpha", guard: stateIn("#done-11") },
                  { target: "#mix40.beta.alpha" },
                ],
              },
            },
            off: {},
          },
        },
      },
    },
    idle: {
      initial: "on",
      after: { "100": { target: "." } },
      states: {
        on: {
          id: "on-14",
          initial: "beta",
          on: {
            submit: "#mix40.beta.alpha",
            back: { target: "#mix40.idle.busy", guard: and(["isReady", "isReady"]) },
            next: "#mix40.wait.done",
          },
          states: {
            view: {
              id: "view-15",
              on: {
                toggle: "#mix40.off",
                "user.click": { target: "#mix40.idle", guard: not("hasItems") },
              },
            },
            load: { id: "load-16", type: "final" },
            beta: { after: { "100": { target: "#mix40.idle", guard: and(["isReady", "canRetry"]) } } },
          },
        },
        busy: {
          invoke: {
            src: "fetcher",
            id: "inv182",
            systemId: "sys188",
            onDone: "#mix40.wait.done.done",
            onError: { target: "#mix40.beta.idle", guard: and(["hasItems", "hasItems"]) },
          },
          on: {
            next: [
              { target: "busy", guard: and(["canRetry", "isReady"]), reenter: true },
              { target: "#on-14.beta", guard: stateIn("#done-11") },
            ],
          },
        },
      },
    },
  },
});
