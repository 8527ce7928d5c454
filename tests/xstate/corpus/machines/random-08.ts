// random: a mixed machine (seed 8): 28 states, 0 history, 2 parallel, 3 with ids.
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
  delays: { short: 100, long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix8",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "load",
  on: { "user.click": ".load.on.on.open", cancel: { target: "#mix8.load.view.edit" } },
  states: {
    load: {
      type: "parallel",
      on: { reset: { target: "load.on" }, submit: { target: "#mix8.load.on.on" } },
      states: {
        view: {
          initial: "shut",
          on: { cancel: "done.open.off" },
          onDone: { target: "done.open.on" },
          states: {
            shut: {
              initial: "open",
              states: {
                open: {
                  invoke: [
                    {
                      src: "fetcher",
                      onDone: { target: "#mix8.load.view.shut.beta", guard: "hasItems" },
                    },
                    { src: "fetcher", onError: { target: "#mix8.load.done.open.gamma" } },
                  ],
                  on: {
                    cancel: [{ target: "#done-9.open.off", guard: not("isAdmin") }, { actions: "track" }],
                    "user.click": "#mix8.load.done.edit",
                    tick: [
                      { target: "#mix8.load.on.shut", guard: "isReady" },
                      { target: "#mix8.load.on.ready" },
                    ],
                  },
                  after: {
                    "2500": { target: "#mix8.load.on.on.idle", guard: stateIn("#beta-8") },
                    long: { actions: "track" },
                  },
                  always: { actions: "track", guard: "isReady" },
                },
                shut: {
                  on: {
                    tick: "#mix8.load",
                    submit: [
                      { target: "#mix8.load.on.on.open", guard: stateIn("#shut-19"), reenter: true },
                      { target: "." },
                    ],
                  },
                  after: { short: { target: "#beta-8" } },
                },
                beta: { type: "final" },
              },
            },
            edit: {
              on: {
                toggle: [
                  { target: "#mix8.load.on.ready.off", guard: "hasItems" },
                  { target: "#mix8.load.done.open", guard: "isReady" },
                ],
                next: [{ actions: "track", guard: "isAdmin" }, { actions: "track", guard: "isAdmin" }],
                "ui.*": { target: "#mix8.load.on.on.idle", guard: ({ context }) => context.retries > 0 },
              },
            },
            beta: {
              id: "beta-8",
              on: {
                reset: [
                  { target: "#done-9.open.gamma", guard: "hasItems" },
                  { target: "#mix8.load.on.on.idle" },
                ],
                go: [
                  { target: "#mix8.load.done.alpha", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix8.load.on.on", guard: "isReady", reenter: true },
                ],
              },
              after: { "100": "#mix8.load.on.shut" },
            },
          },
        },
        done: {
          id: "done-9",
          initial: "edit",
          invoke: [
            { src: "fetcher", id: "inv90", onDone: "#mix8.load", onError: { actions: "track" } },
            { src: "ticker", id: "inv95", systemId: "sys96" },
          ],
          on: {
            go: { actions: "track", reenter: true },
            next: { target: "view.shut", guard: and(["isReady", "isAdmin"]) },
          },
          states: {
            open: {
              initial: "shut",
              on: {
                next: "#done-9.open.off",
                cancel: [
                  { target: "#done-9.open.on", guard: "canRetry" },
                  { target: "#shut-19", guard: and(["isReady", "hasItems"]) },
                ],
              },
              states: {
                shut: {
                  invoke: { src: "ticker", id: "inv113" },
                  on: {
                    cancel: { target: "#mix8.load.view.shut" },
                    "ui.*": [
                      { actions: "track", guard: and(["isReady", "isAdmin"]) },
                      { target: "#mix8.load.on.ready.off" },
                    ],
                    submit: { target: "#mix8.load.on.on.idle", guard: stateIn("#beta-8") },
                  },
                },
                gamma: { on: { reset: "#mix8.load.view.beta", tick: { target: "gamma" } } },
                on: {
                  on: { toggle: { target: "#mix8.load.view.shut", guard: "isReady" } },
                  after: { "1000": { target: "#done-9" } },
                },
                off: {
                  on: {
                    submit: { target: "#mix8.load.done" },
                    cancel: { target: "#mix8.beta", guard: or(["isAdmin", not("isAdmin")]) },
                  },
                },
              },
            },
            edit: { type: "final" },
            alpha: {
              on: {
                submit: "#mix8.load.on.ready.ready",
                "ui.*": { target: "#done-9.open.on", guard: or(["canRetry", not("hasItems")]) },
              },
            },
            on: {
              on: {
                "user.click": { target: "#mix8.load.on.on.open", reenter: true },
                toggle: "#mix8.load.view.shut.open",
                tick: { target: "#mix8.load.on.on", reenter: true },
              },
            },
          },
        },
        on: {
          initial: "shut",
          invoke: {
            src: "fetcher",
            id: "inv181",
            systemId: "sys189",
            onDone: { target: "view.beta", guard: and(["canRetry", "hasItems"]) },
          },
          on: {
            tick: [
              { target: "#mix8.load.done.open.shut", guard: "isAdmin", reenter: true },
              { target: "#mix8.load.done.alpha" },
            ],
          },
          onDone: "#mix8.load.done.open.off",
          states: {
            shut: {
              id: "shut-19",
              on: {
                next: "#mix8.load.done.open.gamma",
                toggle: [{ target: "on", guard: "isReady" }, { target: "#mix8.load.on.ready.off" }],
              },
            },
            off: { on: { reset: { target: "#mix8.load.on.on.open", reenter: true } } },
            ready: {
              type: "parallel",
              onDone: "#mix8.load.view.shut.beta",
              states: {
                off: {
                  on: {
                    back: { target: "#mix8.load.on", guard: "isAdmin" },
                    "ui.*": { actions: "track" },
                    submit: "#mix8.load.on",
                  },
                },
                ready: {
                  invoke: [
                    {
                      src: "fetcher",
                      onError: { target: "#mix8.load.done.open.gamma", guard: and(["hasItems", "hasItems"]) },
                    },
                    { src: "ticker" },
                  ],
                  on: { cancel: { target: "#mix8.load.on.ready", guard: "isReady" } },
                  always: { actions: "track", guard: "hasItems" },
                },
              },
            },
            on: {
              initial: "open",
              invoke: { src: "fetcher" },
              on: { "ui.*": { target: "#mix8.load.done.alpha" } },
              onDone: "#mix8.load.view",
              states: {
                open: { on: { "user.click": "#mix8.load.view", submit: "#mix8.load.done.open.on" } },
                idle: {},
              },
            },
          },
        },
      },
    },
    beta: {
      on: {
        submit: { target: "#mix8.load.on.on.open" },
        next: [
          { target: "#mix8.load.view.shut", guard: and(["isReady", "canRetry"]) },
          { target: "load.on.shut" },
        ],
        back: { target: "load", reenter: true },
      },
    },
  },
});
