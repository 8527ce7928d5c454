// random: a mixed machine (seed 51): 23 states, 2 history, 1 parallel, 2 with ids.
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
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix51",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "view",
  invoke: [
    {
      src: "fetcher",
      id: "inv08",
      onDone: { target: "#mix51.ready" },
      onError: "#mix51.ready.edit",
    },
    { src: "ticker" },
  ],
  on: { "ui.*": ".ready.alpha", back: { target: "#alpha-11" }, submit: "#mix51.off.on" },
  states: {
    on: {
      tags: ["busy", "t1"],
      on: { go: "off", cancel: { target: "off.on.busy.alpha", reenter: true } },
    },
    ready: {
      initial: "load",
      always: { target: "#mix51.off", guard: "isReady" },
      states: {
        load: {
          id: "load-3",
          invoke: {
            src: "fetcher",
            onDone: { target: "#mix51.off.on", guard: and(["canRetry", "isReady"]) },
          },
          on: {
            next: { target: "#mix51.off.on.wait", guard: ({ context }) => context.retries > 0 },
            "ui.*": "#mix51.ready.on",
          },
          after: {
            "1000": { target: "#mix51.off.on.wait", guard: "isReady" },
            "2500": { target: "#mix51.off.load.gamma", guard: "hasItems" },
          },
        },
        on: {
          on: {
            submit: "#mix51.off.on.idle",
            back: [
              { target: "#mix51.ready.edit", guard: or(["canRetry", not("isAdmin")]) },
              { actions: "track", guard: ({ context }) => context.retries > 0 },
            ],
          },
          always: { target: "#mix51.off", guard: ({ context }) => context.retries > 0 },
        },
        edit: {
          on: { cancel: "#mix51.ready.load", toggle: "#mix51.ready.alpha" },
          always: { target: "#mix51.off.on.idle", guard: and(["isAdmin", "hasItems"]) },
        },
        alpha: { type: "final" },
      },
    },
    view: {
      on: {
        "ui.*": { target: "#mix51.ready.load", guard: and(["isAdmin", "isReady"]) },
        reset: { target: "off.load.edit", guard: ({ context }) => context.retries > 0 },
        submit: { target: "#mix51.off.on.busy.ready", guard: "hasItems" },
      },
      always: { target: "ready.alpha", guard: "isAdmin" },
    },
    off: {
      type: "parallel",
      on: { "user.click": [{ target: "#mix51.on", guard: not("isReady") }, { actions: "track" }] },
      states: {
        load: {
          initial: "edit",
          tags: ["busy", "t9"],
          onDone: { target: "#mix51.off.on.busy" },
          states: {
            edit: {
              on: {
                "ui.*": { target: "#mix51.off.on.busy.done", guard: stateIn("#load-3") },
                "user.click": { actions: "track" },
                back: { target: "#mix51.off.on.busy", guard: stateIn("#load-3") },
              },
            },
            alpha: { id: "alpha-11", invoke: [{ src: "ticker" }, { src: "ticker" }] },
            gamma: {
              on: {
                reset: { target: "#mix51.off.load.alpha", guard: ({ context }) => context.retries > 0 },
                go: { target: "#mix51.off.on.wait", guard: ({ context }) => context.retries > 0 },
              },
            },
          },
        },
        on: {
          initial: "busy",
          invoke: { src: "fetcher", id: "inv130", onError: "on.busy.alpha" },
          onDone: { actions: "track", guard: not("isAdmin"), reenter: true },
          states: {
            busy: {
              initial: "ready",
              on: {
                reset: { target: "#load-3" },
                back: { target: "#mix51.off.hist", guard: ({ context }) => context.retries > 0 },
                toggle: "#mix51.off.load.alpha",
              },
              states: {
                ready: {
                  invoke: [
                    { src: "ticker", id: "inv155" },
                    { src: "fetcher", onError: { target: "#mix51.off.on.idle" } },
                  ],
                  on: {
                    submit: [
                      { target: "#mix51.off.load.alpha", guard: "canRetry" },
                      { target: "#mix51.ready", guard: or(["canRetry", not("hasItems")]) },
                    ],
                    toggle: { target: "#mix51.off.on.busy.alpha" },
                    "user.click": { target: "#mix51.ready", guard: "isAdmin" },
                  },
                  after: { "100": { target: "#mix51.off.on", guard: "isReady" } },
                },
                alpha: { invoke: { src: "ticker", id: "inv166" } },
                done: { type: "final" },
                open: {
                  invoke: { src: "fetcher", systemId: "sys187", onDone: "#mix51.on" },
                  on: {
                    toggle: { target: "#mix51.off.on.busy.open", guard: or(["isAdmin", not("hasItems")]) },
                    "user.click": "#alpha-11",
                  },
                  always: { target: "#mix51.ready.load", guard: "isAdmin" },
                },
              },
            },
            idle: { type: "history", target: "busy" },
            alpha: {},
            wait: {
              tags: ["busy", "t21"],
              invoke: [
                { src: "ticker", id: "inv210", systemId: "sys212" },
                {
                  src: "fetcher",
                  id: "inv217",
                  onDone: { target: "#mix51.off.hist", reenter: true },
                  onError: "#mix51.view",
                },
              ],
              on: {
                reset: [
                  { actions: "track", guard: or(["isAdmin", not("isReady")]) },
                  { target: "#mix51.ready.load" },
                ],
                tick: { target: "#mix51.off.load", guard: stateIn("#alpha-11") },
                go: { target: "#mix51.off.on" },
              },
            },
          },
        },
        hist: { type: "history", history: "shallow" },
      },
    },
  },
});
