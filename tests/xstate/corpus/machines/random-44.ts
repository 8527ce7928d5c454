// random: a mixed machine (seed 44): 18 states, 0 history, 1 parallel, 3 with ids.
import { and, fromCallback, fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100, long: 5000 },
  actions: { track: () => {} },
}).createMachine({
  id: "mix44",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: {
      initial: "off",
      on: { "ui.*": [{ actions: "track", guard: "isAdmin" }, { target: "#mix44.idle.beta.wait.idle" }] },
      states: {
        off: {
          type: "parallel",
          onDone: { target: "#mix44.alpha", guard: stateIn("#wait-9") },
          states: {
            beta: { invoke: [{ src: "ticker" }, { src: "ticker" }] },
            open: {
              on: {
                back: { target: "#mix44.idle.beta.off" },
                toggle: { target: "#mix44.idle", guard: "isAdmin" },
              },
            },
          },
        },
        beta: {
          initial: "wait",
          on: {
            back: [
              { target: "#mix44.shut", guard: stateIn("#wait-9"), reenter: true },
              { target: "off.open", guard: not("isAdmin") },
            ],
          },
          states: {
            beta: {
              initial: "idle",
              on: { cancel: { target: "beta.idle" } },
              always: { target: ".view", guard: "isAdmin", reenter: true },
              states: { idle: {}, view: { always: { target: "#mix44.idle.beta.ready", guard: "isAdmin" } } },
            },
            wait: {
              id: "wait-9",
              initial: "on",
              tags: "busy",
              states: {
                on: {
                  invoke: [
                    { src: "fetcher", id: "inv109", onDone: "#mix44.idle.off" },
                    { src: "ticker", id: "inv107" },
                  ],
                  on: {
                    "ui.*": { target: "#mix44.idle.beta", guard: stateIn("#alpha\\.12"), reenter: true },
                    cancel: { actions: "track" },
                  },
                },
                idle: {
                  on: {
                    cancel: { target: "#mix44.idle.beta.ready", reenter: true },
                    tick: { target: "#mix44.idle.beta.beta.idle", guard: and(["isAdmin", "isAdmin"]) },
                    "ui.*": { target: "#mix44.idle.beta.beta.idle" },
                  },
                },
                alpha: {
                  id: "alpha.12",
                  on: {
                    submit: {
                      target: "#mix44.idle.beta.beta.idle",
                      guard: or(["hasItems", not("isReady")]),
                    },
                    tick: { target: "#mix44.idle.off.beta", reenter: true },
                  },
                },
              },
            },
            ready: {
              tags: "busy",
              on: {
                tick: [
                  { target: "#mix44.alpha", guard: and(["isReady", "isAdmin"]) },
                  { target: "#mix44.idle.off.open" },
                ],
              },
            },
            off: { on: { toggle: { target: "#mix44.idle.beta" } } },
          },
        },
      },
    },
    alpha: { on: { tick: "#mix44.idle.off.open", "user.click": { target: "idle.off.beta" } } },
    gamma: { after: { short: { target: "idle.beta.off" } } },
    shut: {
      id: "shut-17",
      on: {
        toggle: { target: "#mix44.gamma", guard: "hasItems" },
        tick: "#mix44.idle.beta.wait.on",
        go: [
          { target: "#mix44.idle.beta.wait.alpha", guard: ({ context }) => context.retries > 0 },
          { target: "idle.off", guard: ({ context }) => context.retries > 0 },
        ],
      },
      after: { long: { target: "idle.off.open", guard: "isReady" } },
    },
  },
});
