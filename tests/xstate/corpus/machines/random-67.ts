// random: a mixed machine (seed 67): 17 states, 1 history, 0 parallel, 3 with ids.
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
  delays: { short: 100, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix67",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "alpha",
  on: {
    toggle: ".alpha.done.gamma",
    reset: "#alpha-3.done.gamma",
    go: { target: "#alpha-3.done.busy", reenter: true },
  },
  states: {
    idle: {
      invoke: [
        {
          src: "fetcher",
          onDone: "#mix67.alpha.done.shut.edit",
          onError: { target: "#mix67.alpha.done.gamma.gamma", guard: stateIn("#busy-10") },
        },
        { src: "ticker", id: "inv14" },
      ],
      on: { back: { target: "alpha.done.busy" } },
      always: { target: "#mix67.alpha", guard: "hasItems" },
    },
    edit: { type: "history", history: "deep" },
    alpha: {
      id: "alpha-3",
      initial: "beta",
      states: {
        ready: {
          on: {
            "user.click": { target: "#mix67.alpha.done.shut", reenter: true },
            next: "#alpha-3.done.gamma.load",
            submit: { actions: "track" },
          },
          always: { target: "done.shut", guard: and(["isAdmin", "hasItems"]) },
        },
        busy: { on: { next: { actions: "track" }, "user.click": "#mix67.alpha.done.gamma" } },
        beta: { id: "beta-6", on: { reset: { actions: "track", guard: not("isReady") } } },
        done: {
          initial: "shut",
          tags: "busy",
          invoke: { src: "fetcher", id: "inv78", onDone: { target: "#mix67.idle", guard: "isAdmin" } },
          on: { back: "#mix67.idle", reset: ".gamma.gamma" },
          states: {
            shut: {
              initial: "edit",
              on: {
                tick: { target: "#mix67.alpha.done.gamma.load", guard: "isAdmin", reenter: true },
                reset: { target: "#alpha-3.done.shut.edit" },
              },
              states: {
                edit: {
                  on: {
                    tick: "#mix67.alpha.done.gamma.load",
                    "ui.*": { target: "#mix67.alpha.done.shut.busy", reenter: true },
                    reset: [
                      { target: "#mix67.alpha.ready", guard: ({ context }) => context.retries > 0 },
                      { target: "#mix67.alpha.ready" },
                    ],
                  },
                },
                busy: { id: "busy-10", on: { cancel: { target: "#mix67.alpha.done.gamma.gamma" } } },
                ready: { on: { "ui.*": "#alpha-3.done.shut.ready" } },
              },
            },
            busy: { type: "final" },
            off: {
              on: {
                cancel: [
                  { target: "#mix67.alpha.beta", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix67.alpha.done", guard: or(["canRetry", not("isReady")]) },
                ],
                "user.click": "#alpha-3.ready",
              },
              after: {
                short: "#mix67.alpha.done.gamma",
                backoff: { target: "#mix67.alpha.ready", guard: ({ context }) => context.retries > 0 },
              },
            },
            gamma: {
              initial: "load",
              after: { "1000": { target: "#mix67.alpha.beta" } },
              always: { target: "#mix67.alpha.done.gamma", guard: not("canRetry") },
              states: {
                gamma: {
                  on: {
                    cancel: [
                      { target: "#alpha-3", guard: "canRetry" },
                      { target: "#alpha-3.done.shut.edit" },
                    ],
                  },
                  always: { target: "#mix67.idle", guard: "hasItems" },
                },
                load: {
                  tags: ["busy", "t16"],
                  on: {
                    next: { target: "#alpha-3.done.shut" },
                    submit: { target: "#mix67.alpha.done.shut.edit", reenter: true },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});
