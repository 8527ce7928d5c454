// random: a mixed machine (seed 1): 19 states, 3 history, 3 parallel, 3 with ids.
import { and, assign, fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix1",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "alpha",
  on: { submit: { target: "#wait-17", guard: "isReady" } },
  states: {
    alpha: {
      id: "alpha-1",
      initial: "alpha",
      on: {
        reset: { target: ".view.busy.hist", guard: stateIn("#beta-18") },
        toggle: { target: "#mix1.alpha", guard: and(["hasItems", "hasItems"]) },
      },
      states: {
        alpha: {
          tags: ["busy", "t2"],
          on: {
            submit: { target: "#mix1.alpha.view.shut" },
            back: { target: "view.busy.hist", guard: "hasItems" },
          },
        },
        view: {
          initial: "done.x",
          onDone: { target: "#mix1.wait" },
          states: {
            "done.x": {
              type: "parallel",
              on: { "user.click": { actions: "track" } },
              states: {
                busy: {
                  on: {
                    tick: "#mix1.alpha.view.busy.gamma",
                    reset: "#alpha-1.view.busy.hist",
                    toggle: { target: "#mix1.alpha" },
                  },
                },
                off: {},
              },
            },
            busy: {
              type: "parallel",
              tags: "busy",
              on: { submit: "#mix1.beta", toggle: { target: "#mix1.beta", reenter: true } },
              states: {
                done: {
                  invoke: {
                    src: "fetcher",
                    id: "inv84",
                    onDone: { target: "#alpha-1.view.shut", guard: "canRetry" },
                  },
                  on: {
                    "ui.*": [
                      { target: "#alpha-1.view.shut", guard: "isAdmin" },
                      { target: "#mix1.alpha.view.shut" },
                    ],
                  },
                },
                gamma: {
                  on: {
                    "ui.*": { target: "#mix1.alpha.view.done\\.x", reenter: true },
                    reset: { target: "#mix1.alpha.open.hist" },
                  },
                },
                alpha: {
                  on: {
                    next: { target: "#mix1.alpha.view.done\\.x" },
                    "user.click": [
                      {
                        target: ["done", "#mix1.alpha.view.busy.gamma"],
                        guard: ({ context }) => context.retries > 0,
                      },
                      { target: "#alpha-1.open" },
                    ],
                  },
                },
                hist: { history: true },
              },
            },
            shut: {},
          },
        },
        open: {
          type: "parallel",
          on: {
            reset: [{ target: "view.done\\.x", guard: "isReady" }, { target: "#beta-18" }],
            next: { target: "#mix1.alpha.view.done\\.x", guard: or(["isReady", not("isReady")]) },
            submit: { target: "#beta-18" },
          },
          states: {
            beta: {
              id: "beta.14",
              on: {
                cancel: { target: "#mix1.alpha.open.idle", reenter: true },
                tick: { target: "#mix1.alpha.view.done\\.x.off", guard: "canRetry" },
                reset: "#mix1.alpha.view.shut",
              },
            },
            idle: {},
            hist: { history: true, target: "idle" },
          },
        },
      },
    },
    wait: { id: "wait-17", type: "history", history: "deep" },
    beta: { id: "beta-18", type: "final" },
  },
});
