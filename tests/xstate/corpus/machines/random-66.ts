// random: a mixed machine (seed 66): 25 states, 1 history, 2 parallel, 6 with ids.
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
  delays: { long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix66",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  on: {
    submit: ".gamma.ready.ready",
    reset: { target: "#shut-1.edit" },
    "user.click": [{ actions: "track", guard: "isAdmin" }, { target: "#mix66.gamma.on", reenter: true }],
  },
  states: {
    shut: {
      id: "shut-1",
      initial: "edit",
      on: {
        cancel: { target: "#mix66.shut.shut", guard: or(["canRetry", not("isReady")]) },
        submit: [
          { target: ["#mix66.shut", "#ready-18.load"], guard: stateIn("#ready-19") },
          { target: "gamma" },
        ],
        "user.click": [
          { target: [".edit", "gamma.gamma"], guard: stateIn("#wait-8") },
          { target: "gamma.ready.load.edit" },
        ],
      },
      states: {
        edit: {
          initial: "load",
          onDone: { target: "#mix66.shut", reenter: true },
          states: {
            idle: {
              type: "parallel",
              states: {
                alpha: {
                  id: "alpha-4",
                  on: {
                    "ui.*": {
                      target: "#mix66.gamma.ready.load.off",
                      guard: and(["hasItems", "isAdmin"]),
                      reenter: true,
                    },
                  },
                  after: {
                    "100": { target: "#mix66.gamma.ready.ready", guard: not("isAdmin") },
                    backoff: {
                      target: "#mix66.gamma.load",
                      guard: and(["hasItems", "hasItems"]),
                      reenter: true,
                    },
                  },
                },
                on: {},
                load: { invoke: { src: "ticker" }, on: { reset: { target: "#ready-18.load.view" } } },
                hist: { type: "history", history: "deep" },
              },
            },
            wait: {
              id: "wait-8",
              on: {
                submit: [
                  { target: "#mix66.shut.edit.open", guard: "isReady" },
                  { target: "#shut-1.edit.idle.hist" },
                ],
                next: { target: "#mix66.gamma" },
              },
            },
            load: {
              on: {
                toggle: "#mix66.gamma.ready.load",
                reset: "#mix66.gamma.load",
                submit: "#shut-1.edit.idle.on",
              },
              after: { long: { actions: "track", reenter: true } },
            },
            open: {
              on: {
                go: { target: "#shut-1.edit.wait" },
                reset: { target: "#mix66.shut.edit.open", guard: "isReady" },
              },
            },
          },
        },
        shut: {
          id: "shut-11",
          on: {
            go: [
              { target: "#mix66.gamma.ready.load.edit", guard: "hasItems" },
              { target: "#shut-1.edit.open", guard: stateIn("#ready-18") },
            ],
          },
        },
        idle: { type: "final" },
        off: {
          on: { "ui.*": { target: "#mix66.gamma.ready.load.off" }, submit: { target: "#shut-11" } },
        },
      },
    },
    gamma: {
      initial: "load",
      invoke: { src: "ticker" },
      on: {
        next: { target: "#shut-1" },
        back: { target: "shut.edit.idle.hist", guard: not("isAdmin"), reenter: true },
        "ui.*": [
          { target: "#mix66.gamma.ready.view", guard: not("canRetry") },
          { target: "#mix66.gamma.ready.load.off", guard: stateIn("#shut-11") },
        ],
      },
      states: {
        load: {
          tags: "busy",
          on: {
            go: { target: "#shut-1.edit.idle.load", guard: not("canRetry") },
            "ui.*": { target: "#mix66.shut.edit.idle" },
            next: [
              { target: "#shut-1.idle", guard: ({ context }) => context.retries > 0 },
              { target: "#mix66.shut.edit.open" },
            ],
          },
        },
        on: { tags: "busy", on: { tick: { target: "#mix66.gamma" } } },
        gamma: {
          invoke: { src: "ticker" },
          on: {
            cancel: [
              { target: "#mix66.shut.edit.idle.hist", guard: not("isReady") },
              { target: "#ready-19" },
            ],
            next: { target: "#mix66.shut.edit", guard: "isReady" },
          },
        },
        ready: {
          id: "ready-18",
          initial: "ready",
          tags: "busy",
          on: {
            next: { target: "#mix66.shut.shut", guard: ({ context }) => context.retries > 0 },
            reset: { target: "#mix66.shut.idle", reenter: true },
          },
          after: { "100": ".load.off" },
          onDone: { target: "#mix66.gamma.gamma" },
          states: {
            ready: {
              id: "ready-19",
              tags: "busy",
              on: { reset: [{ target: "#wait-8", guard: "isAdmin" }, { target: "#mix66.gamma.ready" }] },
              always: { target: "#mix66.shut.edit.idle.hist", guard: or(["canRetry", not("isReady")]) },
            },
            view: { on: { tick: "#mix66.gamma.load" } },
            load: {
              initial: "off",
              invoke: { src: "fetcher", id: "inv219", systemId: "sys213" },
              on: {
                toggle: "#mix66.shut.shut",
                next: { target: "#mix66.shut.edit.wait" },
                back: "#mix66.shut.edit.idle.on",
              },
              states: {
                edit: {
                  on: {
                    "ui.*": { target: "#mix66.shut.edit.wait" },
                    cancel: { target: "#mix66.shut.edit" },
                  },
                },
                off: {
                  on: {
                    "user.click": { target: "#shut-1.edit.open", guard: "canRetry", reenter: true },
                    "ui.*": { target: "#mix66.gamma.load", guard: ({ context }) => context.retries > 0 },
                  },
                },
                view: { type: "final" },
              },
            },
          },
        },
      },
    },
  },
});
