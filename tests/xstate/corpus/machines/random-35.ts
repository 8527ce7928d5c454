// random: a mixed machine (seed 35): 21 states, 0 history, 0 parallel, 4 with ids.
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
  id: "mix35",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "off",
  on: {
    reset: { target: "#mix35.load.view", guard: or(["isAdmin", not("isAdmin")]) },
    go: "#view\\.6",
    "user.click": { target: "#mix35.ready.done.alpha", guard: ({ context }) => context.retries > 0 },
  },
  states: {
    off: { on: { cancel: "#mix35.gamma", toggle: { target: "#mix35.ready.done.alpha" } } },
    ready: {
      initial: "done",
      tags: ["busy", "t2"],
      invoke: {
        src: "fetcher",
        id: "inv25",
        onDone: { actions: "track", guard: or(["canRetry", not("isAdmin")]) },
        onError: { target: ".", guard: ({ context }) => context.retries > 0 },
      },
      on: { back: { target: "load.load.ready", guard: "isAdmin" } },
      onDone: { target: ".done" },
      states: {
        done: {
          initial: "alpha",
          on: {
            submit: [
              { target: "#mix35.load.load.ready", guard: and(["isAdmin", "hasItems"]) },
              { target: "#mix35.load" },
            ],
            "user.click": { target: "#on-12" },
            tick: [{ actions: "track", guard: "hasItems", reenter: true }, { target: "#mix35.load.edit" }],
          },
          states: {
            alpha: {
              on: {
                reset: { actions: "track" },
                cancel: "#mix35.load.load.ready.wait",
                tick: { actions: "track" },
              },
            },
            "open.x": { type: "final" },
            view: { id: "view.6" },
          },
        },
        ready: {
          invoke: { src: "fetcher", id: "inv74", onDone: { target: "#mix35.load.edit" } },
          on: {
            next: "#mix35.load.view.done",
            tick: [
              { target: "#mix35.load.load", guard: "hasItems" },
              { target: "#mix35.ready", reenter: true },
            ],
          },
        },
      },
    },
    gamma: {
      on: {
        back: [
          { target: "#view\\.6", guard: not("hasItems") },
          { target: "#mix35.load.load.ready.wait", guard: and(["isAdmin", "hasItems"]) },
        ],
        toggle: "ready.ready",
      },
    },
    load: {
      id: "load-9",
      initial: "load",
      on: { submit: { target: ".load.beta", guard: "isReady" } },
      onDone: { target: "load", guard: "isAdmin" },
      states: {
        load: {
          initial: "beta",
          onDone: { target: "#mix35.load.beta", guard: "canRetry", reenter: true },
          states: {
            ready: {
              initial: "on",
              on: { toggle: { target: "#mix35.load.edit", guard: and(["isReady", "hasItems"]) } },
              states: {
                on: { id: "on-12" },
                wait: {
                  on: { back: { target: "#load-9.view.done" } },
                  after: { "100": { target: "#load-9.load", guard: stateIn("#on-12"), reenter: true } },
                },
                gamma: {
                  tags: ["busy", "t14"],
                  on: { go: { target: "#mix35.load.load.beta", reenter: true } },
                },
              },
            },
            beta: { type: "final" },
          },
        },
        view: {
          initial: "done",
          on: { "user.click": "#mix35.load.view.edit", cancel: { target: "#mix35.load.view" } },
          states: {
            done: {
              id: "done.17",
              invoke: {
                src: "fetcher",
                onDone: { target: "#mix35.ready.done" },
                onError: { target: "#mix35.off" },
              },
              on: { submit: { target: "#mix35.load.load.ready.gamma" } },
            },
            edit: { type: "final" },
          },
        },
        edit: { on: { next: "#mix35.load" }, after: { "1000": "#mix35.load.load.ready" } },
        beta: {
          tags: "busy",
          on: { go: "view", toggle: [{ target: "load", guard: "isReady" }, { target: "#load-9.edit" }] },
        },
      },
    },
  },
});
