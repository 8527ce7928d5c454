// random: a mixed machine (seed 14): 14 states, 1 history, 2 parallel, 3 with ids.
import { and, assign, fromCallback, fromPromise, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix14",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "gamma",
  on: {
    back: { actions: "track" },
    "ui.*": [{ target: "#mix14.gamma.edit.open\\.x.done", guard: "canRetry" }, { actions: "track" }],
    reset: { target: ".gamma.edit.done", guard: "hasItems" },
  },
  states: {
    gamma: {
      initial: "open",
      always: { target: "#mix14.gamma.off", guard: "isAdmin" },
      onDone: "#mix14.gamma.edit.open\\.x.view",
      states: {
        open: {
          type: "parallel",
          after: {
            "1000": { target: "#mix14.gamma.open.gamma", guard: and(["canRetry", "hasItems"]) },
            "2500": { target: "open", guard: stateIn("#open\\.x-6") },
          },
          states: {
            gamma: {
              id: "gamma-3",
              invoke: {
                src: "fetcher",
                id: "inv39",
                onDone: { target: "#mix14.gamma.edit.open\\.x", guard: and(["isAdmin", "canRetry"]) },
                onError: { target: "#mix14.gamma.edit.open\\.x" },
              },
              on: { "ui.*": "#mix14.gamma.edit.open\\.x.done" },
            },
            busy: { on: { go: "#open\\.x-6" } },
          },
        },
        edit: {
          initial: "done",
          invoke: {
            src: "fetcher",
            id: "inv59",
            systemId: "sys58",
            onDone: "#mix14.beta",
            onError: { target: "#mix14.gamma.edit.open\\.x.done", guard: "hasItems" },
          },
          on: { "ui.*": "#mix14.gamma.edit" },
          states: {
            "open.x": {
              id: "open.x-6",
              type: "parallel",
              on: {
                next: { target: "#mix14.gamma.edit" },
                submit: { target: "#mix14.gamma", guard: "isAdmin" },
              },
              states: {
                beta: {
                  on: {
                    "user.click": [
                      { target: "#mix14.gamma.edit.done", guard: and(["canRetry", "canRetry"]) },
                      { target: "#open\\.x-6.view", guard: and(["canRetry", "isReady"]) },
                    ],
                    cancel: { actions: "track" },
                  },
                },
                done: {
                  id: "done-8",
                  invoke: [{ src: "fetcher", id: "inv85", onDone: { target: "done" } }, { src: "ticker" }],
                  on: { back: "#mix14.gamma" },
                },
                view: { after: { "1000": { target: "#mix14.gamma", guard: "isAdmin" } } },
                hist: { history: true },
              },
            },
            done: { type: "final" },
          },
        },
        off: { type: "final" },
      },
    },
    beta: {
      invoke: { src: "ticker", id: "inv133" },
      on: {
        tick: { target: "gamma.off", guard: "isAdmin" },
        reset: ".",
        cancel: { target: "gamma.open", guard: ({ context }) => context.retries > 0 },
      },
    },
  },
});
