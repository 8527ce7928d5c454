// random: a mixed machine (seed 48): 19 states, 0 history, 1 parallel, 2 with ids.
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
  id: "mix48",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "open",
  states: {
    open: {
      invoke: [{ src: "ticker", id: "inv19" }, { src: "ticker" }],
      on: { reset: { target: "#mix48.view.open.open.view", guard: "isReady" } },
    },
    view: {
      type: "parallel",
      on: {
        reset: { target: "load", guard: stateIn("#idle-8") },
        go: { target: "#mix48.view.open.open.wait" },
        tick: ".edit.busy",
      },
      states: {
        edit: {
          initial: "gamma",
          after: {
            "1000": { target: "edit.on.beta", reenter: true },
            "2500": { target: ".on.on", guard: "hasItems" },
          },
          states: {
            on: {
              initial: "on",
              on: { "user.click": "#mix48.view.open", "ui.*": { target: "#mix48.view.open.open" } },
              states: {
                on: {
                  on: {
                    toggle: { actions: "track" },
                    go: [
                      { target: "#mix48.view.edit", guard: "canRetry" },
                      { target: "#mix48.view.edit.on.idle", reenter: true },
                    ],
                  },
                },
                ready: { tags: "busy" },
                beta: {
                  tags: ["busy", "t7"],
                  on: {
                    submit: [
                      {
                        target: "#mix48.view.open.open.beta",
                        guard: ({ context }) => context.retries > 0,
                      },
                      { target: "#shut\\.18", guard: not("isReady") },
                    ],
                    reset: { target: "#mix48.view.open", guard: and(["canRetry", "isAdmin"]) },
                    next: "#mix48.view.open.open.view",
                  },
                },
                idle: { id: "idle-8", on: { go: "#mix48.view.open.open.wait" } },
              },
            },
            gamma: {
              on: {
                cancel: { target: "#mix48.view.edit.on.beta", guard: stateIn("#shut\\.18") },
                next: "#mix48.view.open",
                reset: { target: "on.on", guard: or(["canRetry", not("isReady")]) },
              },
            },
            busy: { type: "final" },
          },
        },
        open: {
          initial: "open",
          tags: ["busy", "t11"],
          on: { "user.click": "#mix48.load" },
          states: {
            open: {
              initial: "wait",
              on: {
                toggle: { target: ".wait" },
                tick: { target: "#mix48.view.edit", guard: "isAdmin" },
                reset: { target: "#shut\\.18", reenter: true },
              },
              states: {
                wait: {
                  on: { reset: { target: "#mix48.view.edit.on" }, cancel: { target: "#mix48.view" } },
                },
                beta: {
                  invoke: {
                    src: "fetcher",
                    systemId: "sys149",
                    onDone: { target: "#mix48.shut", reenter: true },
                    onError: { target: "#mix48.view.open.open.wait", guard: "isReady" },
                  },
                  on: {
                    go: "#mix48.view.edit",
                    "ui.*": [
                      { target: "#mix48.view.open.open.wait", guard: "hasItems" },
                      { actions: "track" },
                    ],
                    "user.click": "wait",
                  },
                },
                view: {
                  on: {
                    "ui.*": [
                      { target: "#mix48.view.open.open.beta", guard: "isReady" },
                      { target: "#mix48.view.edit.on", guard: stateIn("#idle-8") },
                    ],
                  },
                  after: {
                    long: { target: "#mix48.view.edit.busy", guard: ({ context }) => context.retries > 0 },
                  },
                },
              },
            },
            beta: {
              on: {
                "user.click": [
                  { target: "open.view", guard: stateIn("#idle-8") },
                  {
                    target: "#mix48.view.edit.on.idle",
                    guard: or(["canRetry", not("isReady")]),
                    reenter: true,
                  },
                ],
              },
            },
          },
        },
      },
    },
    load: {
      tags: "busy",
      on: {
        go: { target: "view.open.open.wait" },
        cancel: [
          { target: "#mix48.view.open.open.view", guard: "isAdmin" },
          { target: "view.open.open.beta" },
        ],
      },
    },
    shut: {
      id: "shut.18",
      on: {
        submit: { target: "view.open", guard: and(["canRetry", "canRetry"]), reenter: true },
        tick: { target: "#mix48.view.edit.busy", guard: "isReady" },
        "ui.*": { target: "view.open.open.view", guard: "isReady" },
      },
    },
  },
});
