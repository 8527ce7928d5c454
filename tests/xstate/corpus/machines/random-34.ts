// random: a mixed machine (seed 34): 12 states, 1 history, 1 parallel, 3 with ids.
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
  id: "mix34",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "load",
  on: {
    tick: "#mix34.load.busy",
    back: [{ target: ".load.done", guard: or(["isReady", not("isReady")]) }, { target: ".load" }],
    "user.click": [
      { target: "#on-8.off", guard: and(["isAdmin", "isReady"]), reenter: true },
      { target: "#on-8.off" },
    ],
  },
  states: {
    load: {
      id: "load-1",
      initial: "done",
      invoke: [{ src: "ticker" }, { src: "fetcher", onDone: { target: "#mix34.off" } }],
      on: { "ui.*": "#ready-6" },
      states: {
        done: {
          invoke: { src: "ticker" },
          on: { reset: "#mix34.load.ready", "ui.*": { target: "#mix34.on.off", reenter: true } },
        },
        view: {
          type: "parallel",
          on: { toggle: { target: "#on-8" }, "ui.*": "#ready-6" },
          states: {
            shut: {
              on: {
                submit: [{ target: "#on-8.off", guard: "hasItems" }, { target: "#mix34.off" }],
                go: { actions: "track", reenter: true },
                "ui.*": { target: "#load-1.done", guard: stateIn("#on-8") },
              },
            },
            open: { on: { go: { target: "#mix34.load.view.shut" }, submit: "#mix34.load" } },
          },
        },
        ready: { id: "ready-6", invoke: { src: "ticker", id: "inv62" } },
        busy: {},
      },
    },
    on: {
      id: "on-8",
      initial: "off",
      invoke: [{ src: "ticker", systemId: "sys82" }, { src: "fetcher", id: "inv81" }],
      on: {
        "user.click": [
          { target: "#mix34.load.done", guard: and(["hasItems", "canRetry"]), reenter: true },
          { target: "#mix34.load.done", guard: and(["hasItems", "isAdmin"]) },
        ],
      },
      onDone: { target: "#mix34.on.off", reenter: true },
      states: {
        off: { on: { toggle: { target: "#mix34.load", guard: not("isReady") } } },
        gamma: { on: { next: { target: "gamma", guard: not("hasItems") } } },
      },
    },
    off: { type: "history", target: "on.off" },
  },
});
