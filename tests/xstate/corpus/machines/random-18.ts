// random: a mixed machine (seed 18): 35 states, 3 history, 2 parallel, 6 with ids.
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
  id: "mix18",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  states: {
    alpha: {
      initial: "shut",
      on: { reset: { target: "#mix18.alpha.off.off.gamma", reenter: true }, go: "#busy-8.on" },
      onDone: "#off-4.on.on",
      states: {
        shut: {
          on: {
            toggle: { target: "#off-4.busy.load", guard: "isAdmin" },
            reset: { target: "#mix18.open.edit.done.gamma", guard: "canRetry" },
          },
        },
        beta: { history: true },
        off: {
          id: "off-4",
          initial: "off",
          after: { "100": { target: "#mix18.alpha.off.on.view", reenter: true } },
          states: {
            off: {
              initial: "alpha",
              invoke: [{ src: "ticker", systemId: "sys54" }, { src: "ticker", id: "inv55" }],
              on: {
                back: { target: "#mix18.alpha.shut", guard: and(["isAdmin", "canRetry"]) },
                tick: [
                  { actions: "track", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix18.open.edit.off" },
                ],
              },
              always: { target: "#mix18.open.edit.done", guard: or(["isAdmin", not("isAdmin")]) },
              onDone: "#off-4.off.gamma",
              states: {
                alpha: {
                  after: {
                    "1000": { actions: "track" },
                    backoff: { target: "#mix18.open.edit.busy.on", guard: "isReady" },
                  },
                  always: { target: "#mix18.alpha.shut", guard: "canRetry" },
                },
                gamma: {
                  id: "gamma-7",
                  invoke: { src: "fetcher", onDone: { actions: "track", guard: stateIn("#busy-8") } },
                  on: { next: { target: "#busy-8.on" }, toggle: "#mix18.open.edit.busy.shut" },
                },
              },
            },
            busy: {
              id: "busy-8",
              initial: "load",
              after: { long: { target: "#mix18.alpha.beta", guard: "isReady" } },
              states: {
                load: {
                  on: { submit: { target: "#mix18.open", guard: "hasItems" }, go: "#mix18.open.edit" },
                  after: {
                    "100": { target: "#mix18.alpha.off.on.edit" },
                    backoff: { actions: "track", guard: not("isAdmin") },
                  },
                },
                wait: {
                  on: { tick: { target: "#mix18.alpha.shut", guard: stateIn("#off-4"), reenter: true } },
                },
                gamma: { id: "gamma-11" },
                on: {
                  on: {
                    reset: "#mix18.alpha.beta",
                    "user.click": { target: "#mix18.open", guard: stateIn("#wait-33") },
                  },
                },
              },
            },
            on: {
              initial: "on",
              tags: "busy",
              on: { toggle: { target: "#mix18.open.edit.busy.wait", reenter: true } },
              states: {
                on: {
                  on: {
                    "ui.*": "#off-4.off.alpha",
                    cancel: { target: "#mix18.open.wait" },
                    toggle: { target: "#mix18.alpha.off.busy.load" },
                  },
                },
                edit: {
                  on: {
                    toggle: { target: "#mix18.alpha" },
                    cancel: "#busy-8.load",
                    tick: { target: "#mix18.open.edit.alpha" },
                  },
                },
                wait: {},
                view: { type: "final", tags: ["busy", "t17"] },
              },
            },
          },
        },
      },
    },
    open: {
      initial: "wait",
      on: { submit: { target: "alpha.off.on.wait" } },
      onDone: {
        target: ["#mix18.alpha.off.on.on", "open.edit.done.done"],
        guard: ({ context }) => context.retries > 0,
      },
      states: {
        wait: { on: { "ui.*": "edit.done.done" } },
        view: {
          on: {
            back: { target: "#mix18.alpha.off.on.view" },
            next: [
              { target: "#mix18.open.edit.alpha", guard: stateIn("#off-4"), reenter: true },
              { target: "#off-4.on.on", reenter: true },
            ],
          },
        },
        edit: {
          initial: "done",
          on: {
            tick: { target: "#off-4.on.view" },
            next: { target: "#off-4.off.alpha", guard: and(["hasItems", "isAdmin"]) },
          },
          states: {
            done: {
              initial: "gamma",
              states: {
                gamma: {},
                shut: {
                  on: {
                    tick: { target: "#mix18.alpha.off.on.edit", guard: "isAdmin" },
                    "ui.*": [
                      { target: "#mix18.alpha.off.on.wait", guard: stateIn("#gamma-11") },
                      { target: "#busy-8.wait" },
                    ],
                  },
                  always: { target: "#mix18.open.edit.off", guard: and(["isReady", "isAdmin"]) },
                },
                done: {
                  tags: ["busy", "t25"],
                  on: { submit: "#mix18.open.edit.done.done", reset: "#gamma-7" },
                  always: { target: "#mix18.open.edit.done.done", guard: and(["isAdmin", "hasItems"]) },
                },
              },
            },
            alpha: {
              on: { "user.click": { target: "#busy-8.wait", guard: "isReady" } },
              after: {
                "2500": { actions: "track", guard: or(["isReady", not("canRetry")]) },
                short: "#mix18.open.wait",
              },
            },
            off: {
              on: {
                go: { target: "#mix18.open.edit.done.shut", reenter: true },
                reset: { target: "#off-4.off.alpha", reenter: true },
                tick: { target: "#mix18.alpha.off.on.wait", guard: and(["isReady", "hasItems"]) },
              },
            },
            busy: {
              type: "parallel",
              on: { toggle: "#mix18.alpha.off.on.view", next: "#busy-8.on" },
              always: { target: "#mix18.alpha.off.busy.on", guard: and(["canRetry", "hasItems"]) },
              states: {
                wait: { id: "wait-29" },
                on: {
                  on: {
                    "ui.*": { actions: "track" },
                    submit: [
                      {
                        target: ["#mix18.open.edit.busy.wait", "#mix18.open.edit.busy.on"],
                        guard: and(["isReady", "isAdmin"]),
                      },
                      { target: "#mix18.open.edit.done.gamma" },
                    ],
                  },
                },
                shut: { invoke: [{ src: "ticker" }, { src: "ticker" }] },
              },
            },
          },
        },
        alpha: { history: true, target: "edit" },
      },
    },
    wait: { id: "wait-33", on: { reset: { target: "#gamma-11", reenter: true } } },
    hist: { type: "history", target: "open" },
  },
});
