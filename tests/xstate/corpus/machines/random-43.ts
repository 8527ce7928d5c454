// random: a mixed machine (seed 43): 16 states, 0 history, 1 parallel, 4 with ids.
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
  delays: { backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix43",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "gamma",
  on: { submit: "#mix43.off.alpha" },
  states: {
    gamma: {
      initial: "done",
      states: {
        done: {
          id: "done.2",
          on: { cancel: { target: "#mix43.gamma.alpha.load", guard: "isAdmin" } },
          always: { target: "#mix43.done.alpha", guard: ({ context }) => context.retries > 0 },
        },
        open: {
          id: "open-3",
          invoke: { src: "ticker", id: "inv31" },
          on: {
            "ui.*": "#mix43.gamma.alpha",
            cancel: [{ target: "#mix43.done", guard: "isReady", reenter: true }, { target: "alpha.idle" }],
            tick: { actions: "track" },
          },
          after: {
            "1000": "#done\\.2",
            backoff: { target: "#mix43.gamma", guard: or(["canRetry", not("hasItems")]) },
          },
        },
        busy: {
          on: {
            next: { target: "alpha.idle", guard: "isAdmin" },
            "ui.*": { target: "#mix43.off", reenter: true },
            reset: "#mix43.gamma.alpha.idle",
          },
          after: { "1000": { target: "alpha" }, backoff: { target: "#load-6", guard: "isReady" } },
        },
        alpha: {
          type: "parallel",
          invoke: { src: "ticker" },
          on: {
            "ui.*": { actions: "track" },
            "user.click": [
              { target: "#mix43.gamma.busy", guard: "canRetry" },
              { target: "#mix43.gamma.alpha", reenter: true },
            ],
            go: { target: "#mix43.done.alpha", guard: not("isAdmin") },
          },
          always: { target: "#mix43.done", guard: "hasItems" },
          states: {
            load: {
              id: "load-6",
              on: {
                go: [
                  { target: [".", "#mix43.gamma.alpha.idle"], guard: and(["isReady", "isAdmin"]) },
                  { target: "#mix43.gamma" },
                ],
                reset: { target: "#mix43.gamma", guard: and(["canRetry", "hasItems"]) },
                "ui.*": [
                  { target: "#mix43.done", guard: not("canRetry") },
                  { target: "#mix43.done.alpha", guard: and(["isReady", "hasItems"]) },
                ],
              },
            },
            idle: {},
          },
        },
      },
    },
    off: {
      initial: "done",
      states: {
        alpha: {
          invoke: { src: "ticker", id: "inv91" },
          on: {
            cancel: "#done\\.2",
            back: [
              { actions: "track", guard: or(["isReady", not("hasItems")]) },
              { target: "#mix43.off" },
            ],
          },
        },
        edit: {
          on: { toggle: "alpha" },
          after: {
            "100": { target: "#mix43.done.open", reenter: true },
            backoff: { target: "#mix43.off.done", guard: and(["isReady", "isReady"]) },
          },
        },
        done: {
          on: {
            toggle: { target: "#mix43.shut", guard: "canRetry" },
            cancel: "#mix43.gamma",
            tick: { target: "#mix43.gamma.done", reenter: true },
          },
        },
      },
    },
    shut: {
      invoke: { src: "fetcher", systemId: "sys122", onDone: { target: "#open-14", reenter: true } },
    },
    done: {
      initial: "open",
      states: { open: { id: "open-14" }, alpha: { on: { toggle: { target: "." } } } },
    },
  },
});
