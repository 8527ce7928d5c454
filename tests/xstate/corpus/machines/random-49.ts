// random: a mixed machine (seed 49): 25 states, 3 history, 3 parallel, 7 with ids.
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
  id: "mix49",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  on: { reset: { actions: "track", reenter: true } },
  states: {
    busy: {
      id: "busy-1",
      initial: "load",
      on: { reset: { target: "load.load.open", reenter: true }, next: "load.load.open" },
      after: { "100": "#mix49.idle", backoff: { target: "load.off.idle.busy", guard: "hasItems" } },
      states: {
        load: {
          on: {
            "ui.*": [
              { target: "#load-6.off.gamma", guard: not("isAdmin"), reenter: true },
              { target: "#mix49.load.off.idle", guard: "hasItems" },
            ],
            submit: { target: "#mix49.load.off.beta.open", reenter: true },
          },
        },
        alpha: {
          on: {
            tick: { target: "#load-6.off.idle.edit", guard: "isAdmin", reenter: true },
            "user.click": { target: "#load-6.off.gamma.load", guard: "isReady" },
          },
        },
      },
    },
    idle: { history: true, target: "view" },
    view: { type: "final" },
    load: {
      id: "load-6",
      type: "parallel",
      on: {
        reset: [{ target: "busy.load", guard: "hasItems" }, { actions: "track" }],
        tick: "#idle-13.busy",
      },
      states: {
        off: {
          initial: "idle",
          on: {
            toggle: [
              { target: "off.beta.ready", guard: "isReady", reenter: true },
              { target: "#mix49.busy.load" },
            ],
          },
          onDone: "#load-6.off.gamma.load",
          states: {
            gamma: {
              initial: "beta",
              on: {
                submit: [
                  { target: "#mix49.load.hist", guard: ({ context }) => context.retries > 0 },
                  { target: "#load-6.off.beta.ready", guard: not("hasItems") },
                ],
                back: { target: "idle.edit", guard: "isAdmin" },
                tick: [
                  { actions: "track", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix49.load.load" },
                ],
              },
              states: {
                load: {
                  on: {
                    toggle: [
                      {
                        target: "#load-6.off.beta",
                        guard: or(["canRetry", not("isAdmin")]),
                        reenter: true,
                      },
                      { target: "#mix49.load.off.gamma.ready", guard: "canRetry" },
                    ],
                    submit: "#mix49.idle",
                    next: [
                      { target: "#mix49.load.off.beta.ready", guard: "isReady" },
                      { target: "#mix49.busy.load" },
                    ],
                  },
                },
                "off.x": {
                  id: "off.x-10",
                  on: { cancel: "#load-6.off.gamma.load", go: "#mix49.load.off.idle.on" },
                },
                ready: {
                  on: {
                    next: { target: "#mix49.load.off.idle.edit" },
                    reset: { target: "#load-6.off.gamma.ready" },
                    "user.click": [
                      {
                        target: "#mix49.load.load.open",
                        guard: ({ context }) => context.retries > 0,
                      },
                      { target: "#load-6.off.gamma.off\\.x", guard: "isAdmin" },
                    ],
                  },
                  after: { short: { actions: "track" } },
                },
                beta: {
                  id: "beta-12",
                  tags: "busy",
                  on: { toggle: { actions: "track" }, go: "#busy-1.alpha" },
                },
              },
            },
            idle: {
              id: "idle-13",
              type: "parallel",
              tags: "busy",
              invoke: [
                { src: "fetcher" },
                {
                  src: "fetcher",
                  onDone: {
                    target: "#mix49.load.off.gamma",
                    guard: or(["isAdmin", not("canRetry")]),
                    reenter: true,
                  },
                },
              ],
              on: {
                "user.click": { actions: "track" },
                tick: "#mix49.load.load",
                cancel: "#load-6.off.gamma",
              },
              always: { actions: "track", guard: not("isAdmin") },
              states: {
                busy: {
                  on: {
                    submit: [
                      { target: "#load-6.load.edit", guard: or(["hasItems", not("hasItems")]) },
                      { target: "#mix49.load.off.view", guard: "isAdmin" },
                    ],
                  },
                },
                edit: {
                  id: "edit-15",
                  on: {
                    cancel: [
                      { target: "#busy-1", guard: or(["hasItems", not("hasItems")]) },
                      { target: "#load-6.off.gamma", guard: not("isReady") },
                    ],
                    reset: { target: "#mix49.load.off.idle" },
                    go: { target: "#load-6.off.idle.edit", guard: stateIn("#beta-12") },
                  },
                },
                on: {
                  on: { reset: "#load-6.load" },
                  after: {
                    "100": { target: "#mix49.load.off.view", guard: "hasItems" },
                    "2500": {
                      target: "#mix49.load.off.beta.ready",
                      guard: or(["isReady", not("canRetry")]),
                    },
                  },
                },
              },
            },
            beta: {
              type: "parallel",
              states: {
                ready: {
                  on: {
                    tick: { target: "#load-6.off.idle" },
                    go: { target: "#mix49.load.off.idle.on", guard: not("isAdmin") },
                  },
                },
                open: {
                  invoke: { src: "fetcher", id: "inv196", onDone: "#mix49.busy.alpha" },
                  on: {
                    submit: { target: "#mix49.view", reenter: true },
                    "user.click": { target: "#mix49.load.load", reenter: true },
                    tick: { target: "#mix49.load.off", guard: "isReady" },
                  },
                },
              },
            },
            view: { history: true },
          },
        },
        load: {
          initial: "open",
          invoke: { src: "ticker" },
          on: {
            "user.click": [
              { target: "#mix49.view", guard: and(["isAdmin", "hasItems"]) },
              { target: "#mix49.idle", guard: ({ context }) => context.retries > 0 },
            ],
            submit: [{ target: "#mix49.load.hist", guard: "isAdmin" }, { target: "#mix49.busy" }],
          },
          states: {
            open: {
              on: {
                go: [
                  { target: "#mix49.load.load.open", guard: "isReady" },
                  { target: "#load-6.hist", reenter: true },
                ],
              },
              after: { long: { target: "#mix49.load.load", guard: and(["isAdmin", "isAdmin"]) } },
            },
            edit: {
              id: "edit-23",
              on: {
                go: [{ actions: "track", guard: "isAdmin" }, { target: "#load-6.off.gamma.ready" }],
                cancel: { actions: "track" },
                back: { target: "#idle-13.edit", guard: "canRetry", reenter: true },
              },
            },
          },
        },
        hist: { type: "history", target: "off" },
      },
    },
  },
});
