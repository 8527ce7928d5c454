// random: a mixed machine (seed 30): 18 states, 0 history, 0 parallel, 1 with ids.
import { and, assign, fromCallback, not, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100, long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix30",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "done",
  tags: "busy",
  on: {
    tick: { target: ".ready.on.done.shut", guard: stateIn("#on-12") },
    next: [
      { target: ".ready.on.open.busy", guard: stateIn("#on-12") },
      { target: "#mix30.ready.on.busy" },
    ],
  },
  states: {
    done: {
      on: {
        tick: [
          { target: "#mix30.ready.on.open.beta", guard: and(["isAdmin", "canRetry"]) },
          { actions: "track", guard: "hasItems", reenter: true },
        ],
        "ui.*": { target: "#mix30.ready.on.busy" },
      },
    },
    alpha: { type: "final" },
    ready: {
      initial: "on",
      on: {
        toggle: { target: "#mix30.ready.on.open.beta", guard: and(["canRetry", "canRetry"]) },
        reset: { target: "#mix30.ready.open" },
        next: { target: "#mix30.alpha", guard: "canRetry" },
      },
      states: {
        on: {
          initial: "busy",
          on: {
            go: [{ target: ".", guard: and(["canRetry", "isAdmin"]) }, { actions: "track" }],
            "user.click": ".open",
          },
          states: {
            open: {
              initial: "busy",
              invoke: { src: "ticker" },
              after: { "1000": "#mix30.ready.on.open.idle" },
              states: {
                busy: { on: { go: { target: "beta" } } },
                beta: {
                  on: {
                    "ui.*": [
                      { target: "#mix30.done", guard: and(["isReady", "isReady"]) },
                      { target: "#mix30.ready.on.done", guard: stateIn("#on-12") },
                    ],
                    go: { target: "#mix30.ready.on.done.alpha" },
                  },
                  after: {
                    short: { target: "#mix30.ready.on.done.shut", guard: "hasItems" },
                    backoff: { target: "#mix30.ready", guard: "hasItems" },
                  },
                },
                shut: {
                  on: {
                    toggle: [
                      { target: "#mix30.ready.on.done.shut", guard: stateIn("#on-12") },
                      { target: "#mix30.ready.on.busy", reenter: true },
                    ],
                    "user.click": [
                      { target: "#mix30.ready.on.busy", guard: not("hasItems") },
                      { target: "#mix30.ready" },
                    ],
                  },
                },
                idle: {
                  on: { back: { target: "busy", guard: "isAdmin", reenter: true } },
                  always: { target: "#mix30.alpha", guard: "isAdmin" },
                },
              },
            },
            done: {
              initial: "shut",
              on: {
                next: { target: "#mix30.ready.load", guard: stateIn("#on-12") },
                go: { target: "#mix30.ready.open", reenter: true },
                toggle: { actions: "track" },
              },
              states: {
                off: {},
                on: {
                  id: "on-12",
                  on: {
                    "user.click": { target: "#mix30.ready.load" },
                    cancel: "#mix30.ready.on.open.busy",
                  },
                  after: { "100": { target: "#mix30.ready.on.open.idle" } },
                },
                shut: {},
                alpha: {
                  on: {
                    tick: { target: "#mix30.alpha", guard: ({ context }) => context.retries > 0 },
                    "user.click": {
                      target: "#mix30.ready.load",
                      guard: ({ context }) => context.retries > 0,
                      reenter: true,
                    },
                  },
                },
              },
            },
            busy: {
              on: {
                back: { target: "busy", guard: ({ context }) => context.retries > 0 },
                go: "#mix30.ready.on.busy",
                toggle: { target: "#mix30.ready" },
              },
            },
          },
        },
        load: {},
        open: {
          on: { submit: { target: "#mix30.ready.load", reenter: true } },
          after: { long: "#mix30.ready.on.done.alpha" },
        },
      },
    },
  },
});
