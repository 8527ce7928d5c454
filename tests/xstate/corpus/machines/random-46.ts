// random: a mixed machine (seed 46): 21 states, 1 history, 1 parallel, 2 with ids.
import { and, assign, fromCallback, fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix46",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "off",
  on: {
    "ui.*": [
      { target: "#mix46.wait.alpha.shut", guard: or(["isReady", not("hasItems")]) },
      { actions: "track", guard: "isReady" },
    ],
    submit: { target: "#wait-2.alpha.hist", guard: and(["isAdmin", "isAdmin"]) },
    back: { target: "#wait-2.busy.beta", reenter: true },
  },
  after: { short: "#mix46.wait.on" },
  states: {
    off: {
      on: {
        "ui.*": { target: "#wait-2.busy.beta" },
        toggle: [
          { actions: "track", guard: or(["hasItems", not("isAdmin")]) },
          { target: "#mix46.wait.on" },
        ],
      },
    },
    wait: {
      id: "wait-2",
      initial: "busy",
      invoke: { src: "fetcher", onError: { target: "#mix46.off", reenter: true } },
      states: {
        busy: {
          initial: "wait",
          after: { "100": { target: "alpha.hist" } },
          states: {
            wait: {
              initial: "open",
              invoke: { src: "ticker" },
              states: {
                open: { on: { toggle: { target: "#mix46.wait", guard: "isAdmin" } } },
                ready: {},
                alpha: { always: { target: "#edit-20", guard: "isReady" } },
              },
            },
            ready: {
              initial: "off",
              on: { next: "#mix46.wait.alpha.hist" },
              onDone: { target: "#mix46.wait.busy.wait.ready" },
              states: {
                off: {
                  on: {
                    go: [
                      { target: "#mix46.edit", guard: "hasItems", reenter: true },
                      { target: "#mix46.wait", guard: "isAdmin" },
                    ],
                    "user.click": "#edit-20",
                  },
                },
                wait: { type: "final" },
                view: {
                  on: {
                    tick: { target: "#mix46.edit", guard: ({ context }) => context.retries > 0 },
                    reset: { actions: "track", reenter: true },
                  },
                  after: {
                    "2500": {
                      target: "#mix46.wait.busy.wait.ready",
                      guard: ({ context }) => context.retries > 0,
                    },
                    short: {
                      target: "#mix46.wait.busy.ready",
                      guard: ({ context }) => context.retries > 0,
                    },
                  },
                },
              },
            },
            beta: {},
            off: { on: { go: { target: "#mix46.wait.busy", guard: stateIn("#wait-2") } } },
          },
        },
        on: { on: { tick: { target: "busy.wait.alpha", guard: and(["isAdmin", "isAdmin"]) } } },
        alpha: {
          type: "parallel",
          on: { "user.click": "alpha.hist" },
          states: {
            shut: {
              on: {
                reset: { actions: "track", reenter: true },
                toggle: { target: "idle", reenter: true },
                submit: "#mix46.wait.busy.ready",
              },
            },
            view: {},
            idle: {
              on: { back: "#mix46.off" },
              after: {
                "1000": { target: "#mix46.wait.busy.off" },
                "2500": { target: "#wait-2.busy.ready", guard: "isReady" },
              },
            },
            hist: { history: "deep", target: "view" },
          },
        },
      },
    },
    edit: { id: "edit-20", after: { "1000": { target: "#mix46.wait.busy", guard: "isAdmin" } } },
  },
});
