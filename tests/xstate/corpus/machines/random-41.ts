// random: a mixed machine (seed 41): 29 states, 1 history, 3 parallel, 7 with ids.
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
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix41",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  on: { go: "#mix41.open.busy", "ui.*": { target: "#mix41.open.busy.beta", guard: not("isReady") } },
  states: {
    wait: {
      on: { reset: "done.busy.ready.busy" },
      always: { actions: "track", guard: and(["canRetry", "isAdmin"]) },
    },
    open: {
      initial: "gamma",
      on: { "ui.*": "#mix41.done.idle.off.off" },
      always: { target: "#off-16", guard: stateIn("#off-15") },
      states: {
        gamma: {
          id: "gamma-3",
          tags: ["busy", "t3"],
          on: {
            reset: { target: "#mix41.done.idle.off.off" },
            go: [
              { target: "#mix41.done", guard: ({ context }) => context.retries > 0 },
              { target: "#mix41.done" },
            ],
          },
        },
        done: { type: "history", history: "deep" },
        busy: {
          type: "parallel",
          on: { next: "#mix41.wait" },
          states: {
            done: {
              on: {
                submit: {
                  target: ["#mix41.open.busy.done", "#mix41.open.busy.beta"],
                  guard: not("isAdmin"),
                },
                back: { actions: "track" },
                tick: "#mix41.open.alpha",
              },
            },
            beta: {
              on: {
                cancel: "#mix41.done.busy.ready",
                tick: { target: "#mix41.done.busy.shut" },
                submit: "#busy-18.shut",
              },
            },
          },
        },
        alpha: {
          on: {
            next: { target: "#mix41.done.idle.beta.view", guard: "isAdmin" },
            reset: { actions: "track", reenter: true },
          },
        },
      },
    },
    done: {
      initial: "idle",
      invoke: [{ src: "ticker", id: "inv98" }, { src: "ticker" }],
      onDone: { actions: "track" },
      states: {
        idle: {
          initial: "ready",
          on: {
            reset: [
              { target: "#mix41.done.busy", guard: and(["hasItems", "isAdmin"]) },
              { target: ".beta" },
            ],
            toggle: { target: "#mix41.open.alpha", reenter: true },
          },
          states: {
            ready: {
              on: {
                submit: "#mix41.open.busy.beta",
                go: [
                  { target: "#mix41.done.busy.shut.edit", guard: and(["hasItems", "isAdmin"]) },
                  { target: "#mix41.done.busy.ready.shut", guard: and(["isReady", "hasItems"]) },
                ],
              },
            },
            beta: {
              initial: "view",
              on: {
                "user.click": [
                  { target: "#mix41.done.busy.shut.on", guard: "isAdmin" },
                  { target: "#mix41.done.idle.ready" },
                ],
                cancel: "#mix41.done.busy.ready.shut",
                "ui.*": { target: "#mix41.open.busy.beta" },
              },
              states: { view: {}, off: {} },
            },
            off: {
              id: "off-15",
              type: "parallel",
              tags: "busy",
              on: { reset: { actions: "track" }, submit: { target: "#mix41.view" } },
              always: { target: "#busy-18.ready.busy", guard: not("isReady") },
              states: {
                off: {
                  id: "off-16",
                  tags: ["busy", "t16"],
                  on: {
                    next: [
                      { target: "#mix41.done.busy.ready.shut", guard: not("hasItems") },
                      { target: "#ready-23.load", reenter: true },
                    ],
                  },
                  always: { target: "#mix41.done.idle.beta.view", guard: stateIn("#busy-18") },
                },
                ready: { id: "ready-17" },
              },
            },
          },
        },
        busy: {
          id: "busy-18",
          initial: "ready",
          invoke: [{ src: "ticker", id: "inv188" }, { src: "ticker" }],
          on: {
            go: { target: "#off-15", guard: "isAdmin" },
            "ui.*": { target: "#mix41.open.busy.beta" },
            next: { target: "idle.beta.off", guard: "isReady" },
          },
          after: { "1000": "#mix41.wait" },
          states: {
            shut: {
              type: "parallel",
              on: { reset: { target: "#busy-18.ready.load" } },
              states: {
                edit: {},
                shut: {
                  invoke: { src: "ticker" },
                  on: { reset: { target: "#mix41.done", guard: "isAdmin" } },
                },
                on: { on: { toggle: { target: "#gamma-3", guard: "isReady" } } },
              },
            },
            ready: {
              id: "ready-23",
              initial: "done",
              always: { target: "#load-24", guard: "isAdmin" },
              states: {
                load: { id: "load-24" },
                busy: { on: { cancel: { actions: "track" } } },
                shut: { invoke: { src: "fetcher" } },
                done: {
                  on: {
                    "ui.*": { target: "#mix41.open.busy.beta", guard: ({ context }) => context.retries > 0 },
                    "user.click": "#mix41.done.idle.beta",
                    submit: [
                      { target: "#mix41.open.alpha", guard: stateIn("#off-15") },
                      { target: "#mix41.open", guard: and(["hasItems", "isReady"]) },
                    ],
                  },
                },
              },
            },
          },
        },
      },
    },
    view: { on: { toggle: { target: "#ready-17", guard: or(["canRetry", not("isAdmin")]) } } },
  },
});
