// random: a mixed machine (seed 3): 22 states, 2 history, 3 parallel, 1 with ids.
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
  id: "mix3",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "open",
  states: {
    open: {
      type: "parallel",
      on: { "user.click": { target: "#mix3.alpha.load.gamma" } },
      onDone: { actions: "track", guard: and(["hasItems", "hasItems"]) },
      states: {
        alpha: {},
        edit: {
          initial: "done",
          on: { cancel: { target: ["#mix3.open.alpha", "#mix3.open.edit.done.on"] } },
          states: {
            done: {
              type: "parallel",
              always: { target: "#mix3.alpha.load", guard: "isAdmin" },
              states: {
                off: {
                  on: {
                    next: { target: "#mix3.alpha", guard: stateIn("#view-18") },
                    back: "#mix3.open.edit.load",
                  },
                  after: { short: { target: [".", "shut"], guard: "hasItems" } },
                  always: { target: "#mix3.open.edit.off", guard: and(["isReady", "isReady"]) },
                },
                shut: {
                  invoke: [{ src: "ticker", id: "inv63", systemId: "sys67" }, { src: "ticker" }],
                  on: {
                    back: {
                      target: ["off", "#mix3.open.edit.done.shut"],
                      guard: ({ context }) => context.retries > 0,
                    },
                  },
                  after: { "100": "#mix3.alpha.load.gamma.load" },
                },
                on: { invoke: { src: "ticker" } },
                hist: { type: "history" },
              },
            },
            load: { history: "deep" },
            off: {
              invoke: { src: "fetcher", id: "inv107", onDone: "#mix3.alpha.load.load" },
              on: { cancel: "#mix3.alpha.load", toggle: { target: "load" } },
            },
          },
        },
      },
    },
    alpha: {
      type: "parallel",
      on: { "ui.*": { target: "#mix3.alpha.load.busy", guard: ({ context }) => context.retries > 0 } },
      always: { target: "#mix3.open.edit.done.off", guard: or(["hasItems", not("isAdmin")]) },
      states: {
        load: {
          initial: "load",
          on: {
            toggle: [
              {
                target: "load.gamma.view",
                guard: ({ context }) => context.retries > 0,
                reenter: true,
              },
              { target: "#mix3.alpha.load" },
            ],
            reset: { target: "#mix3.open.edit.done.shut", guard: "hasItems" },
            back: { target: "#mix3.open.edit.done.off" },
          },
          onDone: { target: ["#mix3.alpha.load", "#mix3.alpha.view"] },
          states: {
            load: { on: { tick: "#mix3.open.edit.done.on" } },
            busy: {
              on: {
                next: "#mix3.alpha.load.gamma.view",
                submit: [
                  { target: "#mix3.alpha.view", guard: or(["canRetry", not("hasItems")]) },
                  { target: "shut", guard: stateIn("#view-18") },
                ],
              },
              after: { long: "#mix3.open" },
            },
            shut: { on: { go: { target: "#mix3.open.edit.done.off", guard: "isReady" } } },
            gamma: {
              initial: "view",
              invoke: { src: "fetcher", systemId: "sys163", onDone: { target: "#mix3.open.edit" } },
              on: {
                back: { actions: "track", guard: "canRetry" },
                tick: "#mix3.alpha.view",
                next: { target: "gamma" },
              },
              onDone: { target: "#mix3.open.alpha" },
              states: {
                load: {},
                view: {
                  id: "view-18",
                  on: { toggle: { target: "#mix3.alpha.load.busy" }, next: { actions: "track" } },
                },
                ready: {},
              },
            },
          },
        },
        view: {
          tags: ["busy", "t20"],
          on: {
            cancel: "#mix3.open.edit.off",
            "user.click": { actions: "track", guard: and(["canRetry", "isReady"]) },
            next: [
              { target: "#mix3.alpha", guard: "isReady" },
              { target: "#mix3.open.alpha", guard: and(["hasItems", "isAdmin"]) },
            ],
          },
          after: { "100": "load.gamma.view", "2500": { actions: "track", guard: "isAdmin" } },
        },
      },
    },
    wait: {
      on: {
        submit: { target: "#mix3.open.edit.off", guard: and(["hasItems", "isReady"]) },
        go: { target: "alpha.load.gamma.ready", guard: stateIn("#view-18") },
      },
    },
  },
});
