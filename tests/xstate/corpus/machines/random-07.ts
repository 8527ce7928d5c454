// random: a mixed machine (seed 7): 16 states, 2 history, 1 parallel, 2 with ids.
import { and, assign, fromCallback, fromPromise, not, or, setup } from "xstate";

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
  delays: { short: 100, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix7",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "load",
  invoke: [{ src: "ticker" }, { src: "ticker" }],
  on: { cancel: { target: ".load.alpha.load" }, reset: "#load-3.idle" },
  states: {
    done: { on: { next: { target: "#mix7.load.ready", guard: or(["canRetry", not("isAdmin")]) } } },
    on: { type: "history", history: "deep", target: "load" },
    load: {
      id: "load-3",
      type: "parallel",
      on: { reset: { target: "#load-3.alpha.load.open", guard: "isAdmin", reenter: true } },
      after: {
        short: { target: "#load-3.idle", guard: "isReady" },
        backoff: { target: "#mix7.load.alpha.load", guard: "isAdmin" },
      },
      onDone: { target: "#mix7.shut" },
      states: {
        idle: {
          initial: "shut",
          on: {
            reset: { target: "#mix7.load.idle.ready", reenter: true },
            go: { target: "#mix7.done" },
            cancel: { target: "#load-3.ready", guard: not("hasItems") },
          },
          states: {
            shut: { on: { next: { target: "edit" } } },
            ready: { type: "final" },
            edit: {
              id: "edit-7",
              invoke: { src: "ticker", id: "inv75" },
              on: {
                go: { target: "#mix7.load.ready", guard: and(["isAdmin", "isAdmin"]) },
                "ui.*": "#mix7.done",
              },
            },
          },
        },
        alpha: {
          initial: "shut",
          on: { submit: { target: "#mix7.shut" }, cancel: { target: "#mix7.on", reenter: true } },
          always: { target: ".done", guard: "isAdmin" },
          onDone: {
            target: ["#mix7.load.idle.ready", "#mix7.load.alpha.load.gamma"],
            guard: or(["canRetry", not("isAdmin")]),
          },
          states: {
            shut: {},
            load: {
              initial: "open",
              invoke: [
                { src: "ticker" },
                {
                  src: "fetcher",
                  id: "inv104",
                  onDone: "#mix7.done",
                  onError: { target: "#mix7.load.alpha.load.open" },
                },
              ],
              states: {
                open: {
                  on: { next: "#mix7.load.idle.ready", tick: { actions: "track" } },
                  after: { short: "#load-3.idle.ready" },
                },
                gamma: {
                  on: {
                    tick: "#mix7.load.alpha.shut",
                    "user.click": "#mix7.load.alpha",
                    back: { target: "gamma" },
                  },
                },
              },
            },
            done: { type: "history" },
          },
        },
        ready: { on: { next: "#mix7.load.alpha.load.open" } },
      },
    },
    shut: {
      on: {
        "user.click": { target: "#mix7.load.idle.shut", guard: "canRetry" },
        reset: "#mix7.load.idle.edit",
      },
    },
  },
});
