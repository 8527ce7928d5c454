// random: a mixed machine (seed 37): 19 states, 1 history, 0 parallel, 0 with ids.
import { and, assign, fromCallback, fromPromise, not, or, setup } from "xstate";

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
  delays: { short: 100, long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix37",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  on: { "user.click": "#mix37.busy.busy.busy" },
  after: { long: { actions: "track" } },
  states: {
    view: {
      on: {
        submit: "busy.edit.ready",
        cancel: { target: "busy.idle" },
        back: { target: "busy.edit.ready", guard: ({ context }) => context.retries > 0 },
      },
      after: {
        "2500": { actions: "track", guard: "canRetry" },
        short: { target: "busy.edit", reenter: true },
      },
    },
    busy: {
      initial: "idle",
      tags: "busy",
      invoke: [{ src: "ticker" }, { src: "fetcher", systemId: "sys21", onDone: { target: "busy.ready" } }],
      on: { reset: { target: "busy.edit.edit" } },
      states: {
        idle: { on: { toggle: "#mix37.busy.edit.edit.open", back: { actions: "track" } } },
        ready: {
          initial: "wait",
          on: { toggle: "idle", reset: "#mix37.view" },
          states: {
            wait: {
              on: {
                cancel: "#mix37.busy",
                reset: { target: "#mix37.busy.edit.beta" },
                go: "#mix37.busy",
              },
            },
            "open.x": { type: "history", history: "deep" },
            idle: { type: "final" },
            edit: {
              on: {
                tick: { target: "#mix37.busy.ready.open\\.x" },
                back: { target: "#mix37.busy.edit.edit.open", guard: and(["canRetry", "hasItems"]) },
              },
            },
          },
        },
        busy: {
          initial: "busy",
          states: {
            busy: {
              on: {
                "ui.*": "#mix37.busy.edit",
                submit: [
                  { target: "#mix37.busy.edit.edit.on", guard: and(["isAdmin", "isAdmin"]) },
                  { target: "#mix37.busy.edit.edit", guard: or(["isAdmin", not("isReady")]) },
                ],
              },
            },
            done: {
              on: { next: { target: "#mix37.busy" } },
              after: { short: "#mix37.busy.edit.edit.open" },
            },
          },
        },
        edit: {
          initial: "ready",
          on: { next: { target: "#mix37.busy" }, cancel: { target: ".edit.off" } },
          states: {
            ready: {
              on: { submit: { target: "#mix37.busy.edit.edit", guard: "isReady" } },
              always: { target: "#mix37.busy.busy.busy", guard: "isReady" },
            },
            edit: {
              initial: "open",
              on: { back: { target: "#mix37.busy.ready" } },
              after: { "100": { target: "#mix37.busy.edit", guard: "isReady" } },
              states: {
                open: {
                  invoke: { src: "fetcher", id: "inv157" },
                  on: {
                    submit: [
                      { target: "#mix37.busy.edit", guard: "isAdmin" },
                      { target: "#mix37.busy.edit.edit.open" },
                    ],
                  },
                  after: {
                    "100": { target: "#mix37.busy.edit.edit.on", guard: and(["isAdmin", "canRetry"]) },
                    backoff: { target: "#mix37.busy.ready.open\\.x", guard: "isAdmin" },
                  },
                },
                off: {
                  invoke: [
                    { src: "fetcher", id: "inv164", onDone: "#mix37.busy.ready.open\\.x" },
                    { src: "ticker", id: "inv168" },
                  ],
                  on: { toggle: { target: "#mix37.busy.edit.beta" } },
                },
                on: {
                  on: {
                    toggle: "#mix37.busy.edit.edit.open",
                    "ui.*": { target: "#mix37.busy.edit.beta", guard: "isReady" },
                  },
                },
              },
            },
            beta: {},
          },
        },
      },
    },
  },
});
