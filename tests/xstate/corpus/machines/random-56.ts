// random: a mixed machine (seed 56): 11 states, 0 history, 2 parallel, 1 with ids.
import { and, fromCallback, fromPromise, not, or, setup } from "xstate";

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
  actions: { track: () => {} },
}).createMachine({
  id: "mix56",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  states: {
    view: {
      initial: "beta",
      on: { submit: { target: "#mix56.view.ready", guard: and(["isAdmin", "isAdmin"]) } },
      states: {
        beta: { on: { "user.click": "#mix56.shut.on.alpha" } },
        done: {},
        ready: {
          invoke: [{ src: "fetcher" }, { src: "ticker", id: "inv47" }],
          after: { short: { target: "#mix56.shut.on", guard: "isAdmin" } },
        },
      },
    },
    shut: {
      initial: "off",
      on: { next: { target: "view.beta" } },
      after: { "100": { target: "#mix56.view.ready" } },
      onDone: { actions: "track" },
      states: {
        off: {
          on: {
            next: [
              { target: "#mix56.view", guard: ({ context }) => context.retries > 0 },
              { target: "#mix56.view.done", guard: or(["hasItems", not("isAdmin")]) },
            ],
          },
        },
        ready: { invoke: { src: "ticker" }, on: { cancel: { target: "#mix56.shut", reenter: true } } },
        on: {
          type: "parallel",
          invoke: { src: "ticker" },
          states: {
            busy: {
              invoke: { src: "ticker", id: "inv90" },
              on: {
                "user.click": { target: ["#mix56.shut.on.busy", "#mix56.shut.on.alpha"] },
                tick: { target: "#mix56.view.done" },
                submit: { target: [".", "#alpha-10"] },
              },
            },
            alpha: {
              id: "alpha-10",
              on: {
                back: { target: ".", guard: and(["canRetry", "isReady"]) },
                "ui.*": { actions: "track" },
              },
              after: {
                "100": { target: "#mix56.view" },
                backoff: { target: "#mix56.view", guard: "isReady" },
              },
            },
          },
        },
      },
    },
  },
});
