// random: a mixed machine (seed 57): 32 states, 1 history, 3 parallel, 5 with ids.
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
  id: "mix57",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  on: { submit: { target: ".load", reenter: true } },
  states: {
    "wait.x": {
      initial: "off",
      always: { target: "#mix57.wait\\.x.on", guard: "isAdmin" },
      states: {
        off: {
          id: "off-2",
          type: "parallel",
          on: { cancel: "#mix57.wait\\.x.on.view" },
          after: { "100": { target: "#mix57.load.done", guard: "isAdmin" } },
          states: {
            gamma: {},
            wait: { on: { reset: { target: "#mix57.wait\\.x.open.shut" } } },
            edit: {
              invoke: { src: "ticker" },
              on: {
                tick: { target: "#mix57.wait\\.x.on.open", guard: and(["isAdmin", "isAdmin"]) },
                back: { target: "#mix57.wait\\.x.off", guard: stateIn("#shut-20") },
              },
              always: { target: "#mix57.wait\\.x.on", guard: ({ context }) => context.retries > 0 },
            },
          },
        },
        open: {
          initial: "edit",
          invoke: { src: "ticker", id: "inv69" },
          onDone: "ready",
          states: {
            edit: {
              on: { tick: { target: "#mix57.wait\\.x.open.ready.view" } },
              after: { short: { target: "#off-2", guard: ({ context }) => context.retries > 0 } },
            },
            ready: {
              initial: "view",
              onDone: { target: "#mix57.hist", guard: and(["isAdmin", "hasItems"]) },
              states: {
                view: {
                  on: {
                    go: { target: "#mix57.wait\\.x.on.shut.busy", reenter: true },
                    submit: "#mix57.wait\\.x.off.edit",
                  },
                },
                "ready.x": {
                  on: {
                    back: { target: "#mix57.wait\\.x.on.shut.idle" },
                    next: { target: "#mix57.wait\\.x.on.view" },
                    submit: { target: "#mix57.wait\\.x.on.shut.idle" },
                  },
                  after: { short: "#shut-20.load" },
                },
                open: {
                  on: {
                    "user.click": { target: "#mix57.load.done", reenter: true },
                    reset: { target: "#mix57.wait\\.x.open.shut", reenter: true },
                  },
                },
                shut: {
                  id: "shut.12",
                  tags: ["busy", "t12"],
                  on: {
                    "user.click": { target: "#mix57.wait\\.x.on.shut.idle", guard: "hasItems" },
                    reset: "#mix57.wait\\.x.on.view",
                    tick: { target: "#mix57.wait\\.x.off.gamma" },
                  },
                },
              },
            },
            shut: {
              type: "parallel",
              on: { "ui.*": { target: "#mix57.wait\\.x.open" } },
              onDone: { actions: "track" },
              states: {
                open: {},
                busy: {
                  on: {
                    next: {
                      target: "#mix57.wait\\.x.open.ready.view",
                      guard: and(["hasItems", "canRetry"]),
                    },
                  },
                },
                load: {
                  on: {
                    submit: { target: "#mix57.wait\\.x.open.shut.open", guard: "hasItems" },
                    "ui.*": [
                      { actions: "track", guard: "isReady" },
                      { actions: "track", guard: stateIn("#shut\\.12") },
                    ],
                  },
                  after: { "100": { target: "#mix57.wait\\.x.open.shut" } },
                },
              },
            },
            gamma: {
              on: {
                "user.click": { actions: "track" },
                cancel: "#mix57.wait\\.x.open.shut.load",
                submit: { target: "#mix57.wait\\.x.open.ready.shut", guard: not("isAdmin") },
              },
            },
          },
        },
        ready: { after: { short: { target: "off.gamma" } } },
        on: {
          initial: "shut",
          invoke: {
            src: "fetcher",
            onDone: { actions: "track", guard: or(["isReady", not("canRetry")]), reenter: true },
          },
          on: {
            back: "open.ready.view",
            toggle: { actions: "track", guard: and(["hasItems", "isReady"]) },
            tick: { target: "#mix57.wait\\.x.on", guard: and(["isAdmin", "canRetry"]) },
          },
          onDone: { target: "#mix57.wait\\.x.open.shut.load" },
          states: {
            shut: {
              id: "shut-20",
              initial: "busy",
              on: {
                "ui.*": "#mix57.wait\\.x.open.ready.view",
                tick: { target: "#mix57.wait\\.x.off.gamma", reenter: true },
                go: [{ actions: "track", guard: "canRetry" }, { target: "#mix57.wait\\.x.on.busy" }],
              },
              after: { "1000": { target: "#mix57.wait\\.x.on" } },
              always: { target: "#off-2.wait", guard: "isReady" },
              states: {
                load: {
                  on: { toggle: { target: "#shut-20.open", reenter: true } },
                  after: {
                    "1000": { actions: "track" },
                    backoff: { target: "#shut\\.12", guard: and(["isReady", "canRetry"]) },
                  },
                  always: { target: "#mix57.wait\\.x.open.edit", guard: "isAdmin" },
                },
                idle: {
                  invoke: {
                    src: "fetcher",
                    systemId: "sys223",
                    onDone: { target: "#mix57.wait\\.x.open.shut.load", reenter: true },
                  },
                },
                busy: {
                  invoke: { src: "ticker", id: "inv232" },
                  always: { target: "#mix57.wait\\.x.open.shut", guard: not("canRetry") },
                },
                open: {
                  id: "open.24",
                  on: {
                    "ui.*": [
                      { target: "#mix57.wait\\.x.open.ready", guard: stateIn("#open\\.24") },
                      {
                        target: "#mix57.wait\\.x.off.edit",
                        guard: ({ context }) => context.retries > 0,
                      },
                    ],
                    "user.click": { target: "idle" },
                    go: { target: "#mix57.wait\\.x.on.shut", guard: "isAdmin" },
                  },
                },
              },
            },
            busy: {
              id: "busy-25",
              invoke: { src: "ticker", id: "inv259" },
              after: { long: { target: "view", guard: "isAdmin" } },
            },
            view: {
              on: {
                go: { target: "#mix57.wait\\.x.on.view" },
                toggle: { target: "#mix57.wait\\.x.on.open", guard: not("isReady") },
              },
            },
            open: { tags: "busy" },
          },
        },
      },
    },
    load: {
      initial: "idle",
      invoke: { src: "ticker" },
      on: {
        back: { target: "#mix57.hist" },
        go: { target: "#mix57.wait\\.x.open.ready.ready\\.x", guard: or(["isReady", not("canRetry")]) },
      },
      onDone: { actions: "track", guard: ({ context }) => context.retries > 0 },
      states: {
        idle: {
          on: {
            submit: { target: "#mix57.wait\\.x.on", guard: "canRetry" },
            tick: "#mix57.hist",
            "ui.*": "#mix57.wait\\.x.on.view",
          },
        },
        done: {
          on: {
            submit: [
              { target: "#mix57.wait\\.x.on.view", guard: "hasItems" },
              { target: "#mix57.wait\\.x.open.gamma" },
            ],
            reset: { target: "#mix57.wait\\.x.on.open" },
          },
          always: { target: "#mix57.hist", guard: "hasItems" },
        },
      },
    },
    hist: { history: "deep" },
  },
});
