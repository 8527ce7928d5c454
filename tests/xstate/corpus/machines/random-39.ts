// random: a mixed machine (seed 39): 26 states, 2 history, 2 parallel, 7 with ids.
import { and, assign, fromCallback, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix39",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "edit",
  on: { next: "#mix39.busy.load.busy.ready" },
  states: {
    edit: {
      id: "edit.1",
      initial: "edit",
      on: {
        toggle: "busy.done.load",
        back: [
          { target: "#mix39.busy.load.beta.ready", guard: "isAdmin" },
          { target: "#edit\\.1", reenter: true },
        ],
      },
      onDone: "busy.load.busy.ready",
      states: {
        edit: {},
        off: { history: "deep" },
        alpha: {
          invoke: { src: "ticker", id: "inv49" },
          on: { toggle: { target: "#busy-5.done.load.idle" } },
          after: { short: "#mix39.busy.load.busy" },
        },
      },
    },
    busy: {
      id: "busy-5",
      initial: "done",
      always: { target: "#mix39.busy.done", guard: "canRetry" },
      states: {
        done: {
          initial: "load",
          on: {
            back: [
              { target: "#on-17", guard: not("isAdmin") },
              { target: "load.busy.idle", guard: "isAdmin" },
            ],
            next: [
              { target: "#mix39.busy.load.view.view", guard: "isReady" },
              { target: "#mix39.edit.edit", guard: "canRetry" },
            ],
          },
          onDone: { target: "#mix39.busy", guard: and(["isReady", "hasItems"]) },
          states: {
            load: {
              type: "parallel",
              invoke: { src: "ticker" },
              on: {
                back: [
                  { target: "#busy-5.load.view", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix39.edit.edit" },
                ],
                reset: "#mix39.busy.load.view.view",
              },
              states: {
                load: {
                  on: {
                    reset: "#mix39.busy.load.beta.ready",
                    submit: { target: "#mix39.busy.load.busy.hist" },
                    go: { target: "#busy-5.load.view.view", guard: "hasItems" },
                  },
                },
                on: { id: "on-9", always: { target: "#busy-5.load.busy.idle", guard: "isAdmin" } },
                idle: {
                  on: {
                    reset: [
                      { actions: "track", guard: "isAdmin" },
                      {
                        target: "#mix39.busy.done.load",
                        guard: ({ context }) => context.retries > 0,
                      },
                    ],
                    next: { target: "#mix39.busy.load.beta.ready" },
                  },
                },
              },
            },
            alpha: {},
          },
        },
        load: {
          initial: "beta",
          states: {
            beta: {
              initial: "ready",
              on: { tick: "#mix39.busy.load" },
              states: {
                ready: {
                  on: {
                    toggle: [
                      {
                        target: "#busy-5.load.busy.idle",
                        guard: ({ context }) => context.retries > 0,
                      },
                      { target: "#mix39.busy.load.busy.idle", guard: "canRetry" },
                    ],
                  },
                },
                gamma: { on: { "ui.*": "#mix39.busy.load", go: { target: "#busy-5.done.load" } } },
              },
            },
            view: {
              initial: "on",
              on: { cancel: { target: "#mix39.busy.load.view.on" } },
              states: {
                on: { id: "on-17", on: { go: { target: "#gamma\\.25" } } },
                open: {
                  id: "open-18",
                  on: { cancel: "#busy-5.done.load.load", tick: "#mix39.busy.load.busy.hist" },
                  always: { actions: "track", guard: not("isAdmin") },
                },
                view: {},
              },
            },
            busy: {
              type: "parallel",
              on: {
                "user.click": { target: "#edit\\.1.off", guard: or(["isAdmin", not("isReady")]) },
                "ui.*": "view.view",
                back: { target: "#mix39.busy.load.busy" },
              },
              states: {
                shut: {
                  id: "shut-21",
                  invoke: { src: "ticker", systemId: "sys219" },
                  on: {
                    back: { target: "#edit\\.1.off", guard: ({ context }) => context.retries > 0 },
                    "user.click": { target: "#mix39.busy.load.beta.ready" },
                  },
                },
                ready: {},
                idle: {
                  on: {
                    toggle: { target: "#busy-5.load.busy.shut", guard: or(["hasItems", not("hasItems")]) },
                    go: "#open-18",
                    next: { target: "#busy-5.done.alpha", guard: stateIn("#edit\\.1") },
                  },
                },
                hist: { type: "history", history: "deep", target: "shut" },
              },
            },
            gamma: {
              id: "gamma.25",
              on: { submit: "busy", tick: "#edit\\.1.off", cancel: "#mix39.busy.done.load.on" },
            },
          },
        },
      },
    },
  },
});
