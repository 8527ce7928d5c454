// random: a mixed machine (seed 4): 22 states, 1 history, 2 parallel, 3 with ids.
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
  id: "mix4",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  invoke: { src: "fetcher", onDone: { target: "#mix4.gamma.gamma.ready", guard: "canRetry" } },
  states: {
    gamma: {
      initial: "open",
      on: {
        toggle: { actions: "track", guard: "isAdmin" },
        go: [
          { target: "gamma.gamma.gamma", guard: stateIn("#done-20") },
          { actions: "track", guard: "isReady", reenter: true },
        ],
        "ui.*": "#mix4.gamma.ready",
      },
      states: {
        gamma: {
          initial: "gamma",
          invoke: { src: "ticker", systemId: "sys26" },
          on: { toggle: { target: "#mix4.gamma.gamma.load\\.x.edit" } },
          states: {
            gamma: {
              on: {
                "user.click": [{ target: "gamma", guard: "isAdmin" }, { target: "#mix4.gamma.gamma.load\\.x" }],
              },
            },
            "load.x": {
              initial: "idle",
              on: { "ui.*": { target: "#mix4.view.wait.off", reenter: true } },
              states: {
                idle: {
                  on: {
                    tick: {
                      target: "#mix4.gamma.gamma.gamma",
                      guard: ({ context }) => context.retries > 0,
                    },
                  },
                },
                edit: {
                  on: { next: { actions: "track", guard: or(["isAdmin", not("isAdmin")]) } },
                  always: { target: "#mix4.gamma.gamma.ready", guard: or(["hasItems", not("canRetry")]) },
                },
                shut: {
                  id: "shut-7",
                  invoke: {
                    src: "fetcher",
                    onDone: { target: "#mix4.gamma.gamma.load\\.x.idle", guard: "hasItems" },
                    onError: "#mix4.view.wait",
                  },
                  on: {
                    cancel: [
                      { target: "#mix4.gamma.open", guard: or(["canRetry", not("canRetry")]) },
                      { target: "#mix4.gamma.gamma.load\\.x" },
                    ],
                  },
                },
                beta: { id: "beta-8" },
              },
            },
            busy: { id: "busy-9", type: "history", history: "shallow" },
            ready: {
              on: {
                submit: "#mix4.view",
                reset: [
                  { target: "#mix4.view.wait.off", guard: not("canRetry") },
                  { target: "load\\.x.beta", guard: stateIn("#shut-7") },
                ],
              },
            },
          },
        },
        ready: { type: "final" },
        open: {
          on: {
            "ui.*": { target: "#mix4.view" },
            cancel: { target: "." },
            toggle: { target: "#mix4.view", guard: and(["hasItems", "isReady"]), reenter: true },
          },
          after: { long: { target: "#mix4.gamma.gamma", guard: "canRetry" } },
        },
      },
    },
    view: {
      initial: "on",
      invoke: { src: "ticker", id: "inv133" },
      on: {
        cancel: { target: "#mix4.view.on" },
        next: { actions: "track", guard: stateIn("#done-20") },
        "ui.*": { target: "#mix4.view.shut" },
      },
      states: {
        on: {
          initial: "done",
          on: {
            reset: { actions: "track" },
            "user.click": { target: "#mix4.gamma.gamma.load\\.x.edit" },
          },
          always: { target: "#mix4.view", guard: "hasItems" },
          states: {
            done: { on: { go: { target: "#mix4.view.on", guard: "isAdmin" } } },
            gamma: {
              on: {
                tick: "#mix4.gamma.gamma.load\\.x.edit",
                reset: { target: "#mix4.gamma.gamma.load\\.x.beta", guard: not("isAdmin") },
                toggle: { target: "#mix4.gamma", reenter: true },
              },
            },
          },
        },
        shut: {},
        wait: {
          type: "parallel",
          on: { cancel: "#mix4.gamma.gamma", submit: "#mix4.gamma.open", back: "#mix4.view.shut" },
          states: {
            off: { invoke: { src: "ticker", systemId: "sys193" } },
            done: {
              id: "done-20",
              tags: ["busy", "t20"],
              on: { tick: { actions: "track" }, next: "#mix4.gamma.gamma.load\\.x.idle" },
              always: { target: "#mix4.gamma.gamma.load\\.x", guard: ({ context }) => context.retries > 0 },
            },
          },
        },
      },
    },
    edit: {
      on: {
        next: [
          { target: "#mix4.gamma.gamma.load\\.x.beta", guard: "isAdmin" },
          { target: "#mix4.view.shut", guard: stateIn("#done-20"), reenter: true },
        ],
      },
    },
  },
});
