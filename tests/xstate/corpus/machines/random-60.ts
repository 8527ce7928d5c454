// random: a mixed machine (seed 60): 44 states, 2 history, 3 parallel, 12 with ids.
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
  delays: { backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix60",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "ready",
  invoke: [
    { src: "ticker" },
    { src: "fetcher", id: "inv08", systemId: "sys01", onError: "#mix60.ready.edit.wait" },
  ],
  on: {
    tick: "#mix60.ready.off.load",
    back: "#ready-6.off.open",
    next: [
      { target: "#mix60.busy.done.open.edit", guard: "canRetry" },
      { target: ".busy.done.gamma.off" },
    ],
  },
  states: {
    shut: {
      initial: "ready",
      tags: ["busy", "t1"],
      invoke: { src: "ticker" },
      on: {
        cancel: { target: "#ready-6.open.off", reenter: true },
        back: [{ target: "#mix60.busy.done.idle", guard: "isReady" }, { target: "ready.open.off" }],
      },
      states: {
        ready: {},
        gamma: { id: "gamma-3", type: "final", tags: ["busy", "t3"] },
        idle: { on: { toggle: "#gamma-3" } },
        on: {
          on: {
            next: [
              { actions: "track", guard: ({ context }) => context.retries > 0 },
              { actions: "track" },
            ],
          },
          after: { "1000": "#mix60.ready.off" },
        },
      },
    },
    ready: {
      id: "ready-6",
      type: "parallel",
      on: {
        reset: { target: "ready.edit.edit.shut", guard: ({ context }) => context.retries > 0 },
        go: { target: "busy.done.gamma.load" },
      },
      onDone: { target: "#done-32" },
      states: {
        off: {
          initial: "open",
          tags: ["busy", "t7"],
          states: {
            open: {
              id: "open-8",
              invoke: [
                { src: "ticker", id: "inv84" },
                { src: "fetcher", onDone: { target: "#mix60.ready.off.load", reenter: true } },
              ],
              on: {
                back: { target: "#mix60.ready.off" },
                cancel: { target: "#mix60.ready.edit.edit.open" },
                submit: { target: "#ready-6.off.gamma" },
              },
            },
            gamma: { history: "deep" },
            load: {},
          },
        },
        edit: {
          initial: "ready",
          invoke: { src: "fetcher", systemId: "sys116", onError: "#mix60.busy.done.idle.off" },
          on: { cancel: { target: "#mix60.shut.gamma", reenter: true } },
          onDone: { target: "#mix60.busy.done.gamma" },
          states: {
            ready: {
              id: "ready-12",
              initial: "off",
              on: { back: { target: "#ready-6.edit.ready" } },
              states: {
                off: { on: { "user.click": "gamma" } },
                edit: { type: "final", tags: ["busy", "t14"] },
                gamma: { on: { tick: { target: "#mix60.ready", reenter: true } } },
              },
            },
            edit: {
              initial: "shut",
              on: {
                cancel: { target: "#ready-6.off.open", guard: or(["hasItems", not("canRetry")]) },
                back: { target: "#ready-6.open.edit.shut", reenter: true },
                submit: { target: "#done-32.idle", guard: stateIn("#alpha-24"), reenter: true },
              },
              states: {
                shut: { id: "shut-17", tags: "busy", on: { back: { target: "#open-21", reenter: true } } },
                open: {
                  on: {
                    go: "#mix60.busy.done.open.edit",
                    next: { target: "#load-37", guard: or(["hasItems", not("isAdmin")]) },
                  },
                },
              },
            },
            wait: { type: "final" },
            alpha: {
              on: {
                tick: { target: "#mix60.ready.open.alpha", guard: stateIn("#off-38") },
                reset: { target: "#ready-6.off.open", reenter: true },
                "ui.*": { target: "#mix60.ready.off.gamma", guard: or(["isReady", not("hasItems")]) },
              },
            },
          },
        },
        open: {
          id: "open-21",
          initial: "busy",
          on: {
            go: { actions: "track" },
            "user.click": [
              { target: "#open-8", guard: ({ context }) => context.retries > 0 },
              { target: "#mix60.busy" },
            ],
          },
          states: {
            busy: {
              on: {
                next: [
                  { target: "#mix60.busy.done.idle.wait", guard: or(["hasItems", not("isReady")]) },
                  {
                    target: "#mix60.ready.edit",
                    guard: and(["canRetry", "hasItems"]),
                    reenter: true,
                  },
                ],
                back: "#mix60.ready.edit.wait",
              },
            },
            off: {
              on: {
                reset: { actions: "track", guard: "isAdmin" },
                go: { target: "#mix60.ready.off.open", guard: "isReady", reenter: true },
                back: { target: "#mix60.busy.done.gamma.off", guard: or(["canRetry", not("canRetry")]) },
              },
            },
            alpha: { id: "alpha-24", type: "final" },
            edit: {
              initial: "shut",
              invoke: { src: "ticker", id: "inv251", systemId: "sys252" },
              on: {
                cancel: { target: "#ready-12.off", guard: and(["isReady", "isAdmin"]) },
                "ui.*": { target: "#done-32.gamma.ready" },
              },
              onDone: "#mix60.shut.idle",
              states: {
                shut: {
                  on: {
                    reset: "beta",
                    next: { target: "#mix60.busy.done.open", guard: not("isAdmin") },
                  },
                },
                busy: {
                  on: {
                    "user.click": "#mix60.ready.off.gamma",
                    go: { target: "#ready-6" },
                    tick: "#ready-6.open.edit.load",
                  },
                },
                beta: {
                  on: { cancel: "#ready-6.edit.ready.edit", go: { target: "beta", guard: "isReady" } },
                },
                load: { type: "final" },
              },
            },
          },
        },
      },
    },
    busy: {
      type: "parallel",
      tags: ["busy", "t30"],
      on: { "user.click": { actions: "track" }, tick: { target: "#mix60.shut.on" } },
      states: {
        idle: {
          after: {
            "1000": { target: "#ready-12.edit" },
            backoff: { target: "#ready-12", guard: "isReady" },
          },
        },
        done: {
          id: "done-32",
          initial: "idle",
          on: {
            back: "#done-32.gamma.load",
            submit: { target: "#mix60.busy.done.gamma", reenter: true },
            go: { target: "#mix60.ready.edit.edit.shut", guard: or(["hasItems", not("isReady")]) },
          },
          states: {
            idle: {
              initial: "wait",
              states: { wait: { on: { go: "#mix60.shut", next: "#mix60.busy.done.open.gamma" } }, off: {} },
            },
            gamma: {
              id: "gamma-36",
              type: "parallel",
              after: { "1000": "#mix60.busy.done.idle" },
              states: {
                load: {
                  id: "load-37",
                  on: { "user.click": { target: "#done-32.idle.wait", guard: "canRetry" } },
                },
                off: {
                  id: "off-38",
                  invoke: { src: "ticker", id: "inv388" },
                  on: {
                    next: "#mix60.busy.done.gamma",
                    back: { actions: "track" },
                    toggle: { actions: "track" },
                  },
                },
                ready: { tags: ["busy", "t39"] },
              },
            },
            open: {
              initial: "edit",
              on: {
                toggle: "#mix60.ready.open.edit.shut",
                tick: { target: "#mix60.ready.off.load" },
                cancel: "#mix60.ready.edit.ready.edit",
              },
              states: {
                edit: {
                  invoke: { src: "ticker", id: "inv410" },
                  on: {
                    submit: { target: "#mix60.ready.open.edit" },
                    "ui.*": { target: "#open-21.edit.beta" },
                  },
                },
                gamma: { id: "gamma-42" },
              },
            },
            wait: { history: "deep" },
          },
        },
      },
    },
  },
});
