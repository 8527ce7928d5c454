// random: a mixed machine (seed 9): 33 states, 0 history, 2 parallel, 9 with ids.
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
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix9",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "ready",
  invoke: { src: "ticker", systemId: "sys06" },
  on: { submit: "#mix9.off" },
  states: {
    ready: { on: { next: "alpha.shut.off", go: { actions: "track" } } },
    alpha: {
      type: "parallel",
      invoke: { src: "ticker", id: "inv29", systemId: "sys23" },
      on: { cancel: "alpha.load.beta.ready" },
      states: {
        load: {
          initial: "ready",
          on: {
            back: { target: "#mix9.alpha.load.ready.view", guard: or(["canRetry", not("canRetry")]) },
            cancel: "#open-16",
          },
          states: {
            ready: {
              initial: "off",
              states: {
                off: {
                  on: {
                    tick: [
                      { target: "#mix9.alpha.busy.view.done", guard: "isAdmin" },
                      { target: "#mix9.off", guard: ({ context }) => context.retries > 0 },
                    ],
                    reset: [
                      { target: "#mix9.alpha.load.ready", guard: "hasItems" },
                      { target: "#mix9.alpha.shut.busy.alpha" },
                    ],
                  },
                },
                view: {
                  id: "view-6",
                  on: {
                    "user.click": "#mix9.alpha.busy.done",
                    cancel: { target: "#mix9.alpha.shut.gamma", guard: "canRetry" },
                  },
                },
                ready: { type: "final" },
              },
            },
            load: { type: "final" },
            beta: {
              id: "beta.9",
              initial: "edit",
              on: {
                cancel: { target: "#mix9.alpha.busy.open" },
                back: { actions: "track" },
                reset: { target: "#mix9.alpha.load" },
              },
              onDone: { target: "#mix9.alpha.shut.busy" },
              states: {
                edit: { on: { reset: "#mix9.alpha.busy" } },
                busy: { after: { "1000": "#mix9.alpha.busy.view" } },
                ready: {
                  tags: "busy",
                  on: {
                    reset: [
                      { target: "#mix9.alpha.shut.busy", guard: not("hasItems"), reenter: true },
                      { target: "#mix9.alpha.load.beta.edit" },
                    ],
                    next: {
                      target: "#mix9.alpha.load.beta.busy",
                      guard: or(["canRetry", not("isReady")]),
                    },
                  },
                },
                gamma: { id: "gamma-13", type: "final", tags: "busy" },
              },
            },
          },
        },
        busy: {
          initial: "alpha",
          invoke: [
            { src: "ticker" },
            {
              src: "fetcher",
              systemId: "sys142",
              onDone: { target: "#mix9.alpha.load.ready.view" },
            },
          ],
          on: { cancel: "#mix9.alpha" },
          states: {
            alpha: {
              on: {
                "user.click": { target: "#beta\\.9.busy" },
                toggle: "#mix9.alpha",
                next: [
                  { target: "#mix9.alpha.load.beta.edit", guard: or(["isReady", not("isReady")]) },
                  { target: "#mix9.alpha.shut.beta" },
                ],
              },
              after: { long: { target: "#beta\\.9.edit", reenter: true } },
            },
            open: {
              id: "open-16",
              on: {
                back: "#mix9.alpha.load.ready.view",
                reset: [{ target: "#mix9.alpha.shut.gamma", guard: "isAdmin" }, { target: "#gamma-13" }],
              },
              after: { "1000": { target: "#mix9.alpha.load.ready.view", guard: "isReady" } },
            },
            done: {
              id: "done-17",
              on: {
                cancel: { target: "#mix9.alpha.load.ready.ready" },
                submit: { target: "#mix9.alpha.load.ready", guard: "isAdmin" },
              },
            },
            view: {
              initial: "done",
              on: {
                reset: { actions: "track", guard: not("canRetry") },
                "user.click": { target: "#done-17" },
                tick: { target: "#mix9.alpha.load", guard: or(["canRetry", not("isReady")]) },
              },
              states: {
                done: {
                  id: "done-19",
                  on: {
                    "ui.*": { target: "#mix9.alpha.shut.off.gamma", guard: and(["hasItems", "canRetry"]) },
                    back: { target: "#mix9.off", reenter: true },
                  },
                },
                wait: {},
              },
            },
          },
        },
        shut: {
          initial: "beta",
          invoke: [{ src: "ticker", systemId: "sys219" }, { src: "fetcher", systemId: "sys218" }],
          after: {
            long: { target: "#mix9.alpha.load.beta.edit", guard: ({ context }) => context.retries > 0 },
          },
          states: {
            beta: { id: "beta-22", invoke: { src: "ticker" } },
            off: {
              id: "off-23",
              initial: "beta",
              on: {
                go: [
                  { target: "#mix9.off", guard: or(["isReady", not("canRetry")]) },
                  { target: ".", guard: stateIn("#open-16") },
                ],
                "user.click": ".gamma",
              },
              states: {
                beta: { tags: ["busy", "t24"], on: { tick: { actions: "track", reenter: true } } },
                gamma: { on: { toggle: { target: "#beta\\.9.ready" } } },
                "done.x": { invoke: { src: "fetcher", onDone: "#mix9.alpha.load.load" } },
              },
            },
            gamma: {
              on: {
                "user.click": "#mix9.alpha.busy.view.done",
                back: { target: "#mix9.alpha.load.ready.ready" },
              },
              after: { "1000": "busy.alpha" },
              always: { target: ".", guard: ({ context }) => context.retries > 0 },
            },
            busy: {
              type: "parallel",
              invoke: { src: "ticker" },
              on: {
                "ui.*": "#mix9.alpha.load.beta.busy",
                reset: [
                  { target: "#mix9.off", guard: stateIn("#beta-31") },
                  { target: "#mix9.alpha.load.beta", guard: "canRetry" },
                ],
              },
              states: {
                load: {
                  on: {
                    back: [
                      { target: [".", "#mix9.alpha.shut.busy.alpha"], guard: "canRetry" },
                      { target: "#mix9.alpha.shut.busy.alpha" },
                    ],
                    next: [
                      { target: "#mix9.alpha.busy.view.wait", guard: "canRetry" },
                      { target: "#mix9.alpha.shut.busy" },
                    ],
                  },
                },
                alpha: { on: { "ui.*": { target: "#mix9.alpha.busy.view.wait", guard: "isReady" } } },
              },
            },
          },
        },
      },
    },
    beta: {
      id: "beta-31",
      on: {
        go: { target: "#beta-22", guard: or(["isAdmin", not("isReady")]), reenter: true },
        toggle: { target: "#mix9.alpha.shut.busy.alpha", guard: "canRetry" },
      },
    },
    off: {},
  },
});
