// random: a mixed machine (seed 63): 17 states, 1 history, 1 parallel, 3 with ids.
import { and, fromCallback, fromPromise, not, or, setup, stateIn } from "xstate";

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
  actions: { track: () => {} },
}).createMachine({
  id: "mix63",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "gamma",
  states: {
    gamma: {
      invoke: { src: "ticker", id: "inv19", systemId: "sys12" },
      on: { tick: { target: "#mix63.open.ready", guard: and(["canRetry", "isReady"]) } },
    },
    beta: {
      id: "beta.2",
      invoke: [
        {
          src: "fetcher",
          onDone: { target: "open.ready.done", guard: ({ context }) => context.retries > 0 },
        },
        {
          src: "fetcher",
          id: "inv26",
          onDone: { actions: "track", guard: stateIn("#edit-7"), reenter: true },
        },
      ],
    },
    open: {
      initial: "shut",
      on: {
        next: { target: ".shut" },
        "ui.*": "open.ready.wait",
        tick: { target: "open.ready.done", guard: or(["hasItems", not("canRetry")]) },
      },
      states: {
        shut: {
          invoke: { src: "fetcher" },
          on: {
            tick: [
              { target: "#mix63.open.ready.done.done", guard: ({ context }) => context.retries > 0 },
              { actions: "track" },
            ],
          },
          after: { long: { actions: "track", guard: "isAdmin" } },
        },
        ready: {
          initial: "done",
          on: { "ui.*": { target: "#mix63.open.alpha", guard: "isReady", reenter: true } },
          onDone: "#mix63.gamma",
          states: {
            done: {
              type: "parallel",
              always: { target: "#mix63.open.ready.done.done", guard: and(["hasItems", "isReady"]) },
              states: {
                edit: {
                  id: "edit-7",
                  on: { cancel: "#mix63.open", next: { target: "#mix63.gamma", reenter: true } },
                  after: { short: { target: "#mix63.open.alpha.view" } },
                },
                done: {
                  on: {
                    next: { target: "#mix63.open.ready.done.hist", guard: "isAdmin" },
                    submit: { target: "#mix63.open.shut" },
                  },
                  after: {
                    long: { target: "#mix63.open.shut", guard: ({ context }) => context.retries > 0 },
                  },
                },
                hist: { type: "history", history: "shallow" },
              },
            },
            wait: {
              invoke: [
                { src: "ticker" },
                {
                  src: "fetcher",
                  onDone: { target: "#mix63.open.ready.on" },
                  onError: { target: "done.hist", guard: and(["hasItems", "isReady"]), reenter: true },
                },
              ],
            },
            on: {
              id: "on-11",
              on: { submit: { target: "#mix63.open.alpha" }, next: "#mix63.busy" },
              after: { "1000": "#on-11" },
            },
          },
        },
        alpha: {
          initial: "view",
          on: {
            tick: [
              { actions: "track", guard: ({ context }) => context.retries > 0, reenter: true },
              { actions: "track" },
            ],
          },
          onDone: { target: "#mix63.open", guard: and(["hasItems", "hasItems"]) },
          states: {
            view: {},
            shut: {
              on: { back: "#mix63.open.ready.done.done", submit: "#mix63.busy" },
              after: { long: { target: "#mix63.open.ready.done.hist", guard: "hasItems" } },
            },
            done: {
              on: { back: "#mix63.open.ready.on", go: { target: "#mix63.open.alpha", reenter: true } },
            },
          },
        },
      },
    },
    busy: { type: "final" },
  },
});
