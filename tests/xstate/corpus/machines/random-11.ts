// random: a mixed machine (seed 11): 34 states, 3 history, 3 parallel, 3 with ids.
import { and, assign, fromCallback, fromPromise, not, or, setup, stateIn } from "xstate";

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
  id: "mix11",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  states: {
    busy: {
      type: "parallel",
      tags: "busy",
      on: { "ui.*": { target: ".on.wait.busy" } },
      onDone: { target: ".", reenter: true },
      states: {
        busy: {
          initial: "idle",
          on: { toggle: "#beta-26" },
          always: { target: ["#mix11.busy.busy.off", "on.open.open"], guard: "isAdmin" },
          states: {
            off: {
              invoke: { src: "fetcher", id: "inv37", onDone: { actions: "track" }, onError: "#mix11.busy" },
              on: { "ui.*": { target: "#mix11.done.done" } },
              after: {
                "2500": { target: "#mix11.busy.on.wait.wait", guard: ({ context }) => context.retries > 0 },
                long: "#mix11.busy.on.wait.busy",
              },
              always: { target: "#beta-26.done", guard: ({ context }) => context.retries > 0 },
            },
            idle: { on: { reset: { target: "#mix11.done.on.ready", reenter: true } } },
          },
        },
        on: {
          initial: "open",
          on: {
            toggle: { target: "#mix11.busy.on.open" },
            next: { actions: "track" },
            cancel: { target: "#mix11.busy.on.open.open", guard: "hasItems" },
          },
          states: {
            wait: {
              initial: "wait",
              states: {
                wait: {
                  on: {
                    next: { target: "#mix11.busy.on.off" },
                    "user.click": { target: "#mix11.done.view.ready", guard: "canRetry" },
                  },
                },
                busy: {
                  tags: "busy",
                  on: {
                    next: { actions: "track", guard: or(["hasItems", not("isAdmin")]) },
                    "user.click": "#mix11.done.on.gamma",
                    toggle: { target: "#gamma-29", guard: or(["isReady", not("isReady")]) },
                  },
                },
                alpha: {},
              },
            },
            busy: { on: { tick: { actions: "track", reenter: true } } },
            open: {
              type: "parallel",
              invoke: [{ src: "ticker" }, { src: "ticker", id: "inv112" }],
              on: {
                back: { target: "#mix11.busy.on.open.wait" },
                reset: { target: "#mix11.done", guard: stateIn("#beta-26") },
              },
              onDone: { target: "#mix11.done", guard: "isAdmin" },
              states: {
                wait: {
                  on: {
                    next: { target: "#mix11.off", guard: "canRetry" },
                    "user.click": { target: "#mix11.busy.on.open.beta", guard: "hasItems" },
                    tick: { target: "#beta-26.done", guard: and(["canRetry", "hasItems"]) },
                  },
                },
                open: {
                  invoke: { src: "fetcher", onDone: { target: "#mix11.busy.on.open" } },
                  on: {
                    "ui.*": [
                      { target: "#mix11.done.done", guard: "hasItems" },
                      { target: "#mix11.busy.on.open.open", guard: "canRetry" },
                    ],
                    next: { target: "#mix11.busy.on.open", guard: "hasItems", reenter: true },
                  },
                },
                beta: {
                  on: {
                    cancel: "#mix11.done.view.ready",
                    next: { target: "#mix11.done.on.gamma", guard: and(["canRetry", "canRetry"]) },
                  },
                },
                hist: { type: "history", history: "deep" },
              },
            },
            off: {
              id: "off-16",
              tags: ["busy", "t16"],
              on: {
                next: { target: "open.wait", guard: "hasItems", reenter: true },
                "user.click": [
                  { target: "#mix11.busy.on.open.beta", guard: and(["isAdmin", "isAdmin"]) },
                  { target: "#mix11.busy.on", guard: or(["canRetry", not("isReady")]) },
                ],
              },
            },
          },
        },
      },
    },
    done: {
      initial: "view",
      on: {
        reset: [
          { target: "busy.busy.off", guard: "canRetry" },
          { target: "busy.on.open.wait", guard: "hasItems" },
        ],
      },
      onDone: ".view.ready.off",
      states: {
        view: {
          initial: "ready",
          invoke: [
            { src: "fetcher", id: "inv188", systemId: "sys188", onDone: { target: "view.off" } },
            { src: "ticker" },
          ],
          on: {
            next: [
              { target: "#mix11.off", guard: ({ context }) => context.retries > 0 },
              { actions: "track" },
            ],
            "ui.*": { target: "#mix11.done.on.ready", guard: or(["hasItems", not("isReady")]) },
            go: "on",
          },
          after: {
            "100": { target: "#mix11.done.on.beta", reenter: true },
            "2500": { target: "#mix11.busy.on.wait.alpha", guard: not("isAdmin") },
          },
          states: {
            ready: {
              initial: "open",
              after: { "1000": { target: "#mix11.done.on.beta.hist" } },
              states: { open: {}, off: {} },
            },
            off: { type: "final" },
          },
        },
        on: {
          initial: "ready",
          invoke: [{ src: "ticker", systemId: "sys232" }, { src: "ticker" }],
          on: {
            reset: "#mix11.busy.on.wait.wait",
            cancel: { target: "#mix11.done.view.ready.open", guard: ({ context }) => context.retries > 0 },
          },
          onDone: "#mix11.busy.on.open.beta",
          states: {
            ready: {},
            gamma: {},
            beta: {
              id: "beta-26",
              type: "parallel",
              tags: "busy",
              states: {
                on: {
                  on: {
                    "ui.*": { target: "#mix11.busy.on.open.hist", reenter: true },
                    reset: {
                      target: "#mix11.busy.on.wait.alpha",
                      guard: ({ context }) => context.retries > 0,
                    },
                  },
                  after: {
                    short: { actions: "track" },
                    backoff: {
                      target: "#mix11.busy.on.wait.alpha",
                      guard: ({ context }) => context.retries > 0,
                    },
                  },
                },
                done: { on: { toggle: "#mix11.busy.on.open" } },
                gamma: { id: "gamma-29", on: { next: { target: "#mix11.busy.on", reenter: true } } },
                hist: { history: "deep" },
              },
            },
          },
        },
        open: { history: true },
        done: { type: "final" },
      },
    },
    off: { invoke: { src: "fetcher" } },
  },
});
