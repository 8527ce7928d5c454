// random: a mixed machine (seed 23): 15 states, 2 history, 1 parallel, 2 with ids.
import { assign, fromCallback, fromPromise, not, setup, stateIn } from "xstate";

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
  delays: { long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix23",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  on: { "user.click": { target: "#mix23.alpha.shut.busy.load" } },
  after: { long: { target: "#mix23.idle.ready" } },
  states: {
    idle: {
      initial: "shut",
      tags: ["busy", "t1"],
      invoke: {
        src: "fetcher",
        onDone: { target: "idle.shut", guard: not("canRetry") },
        onError: { target: "alpha.shut.busy.done", guard: "canRetry", reenter: true },
      },
      on: { "user.click": { target: "." } },
      states: {
        shut: { on: { back: { target: "#mix23.idle.ready", guard: not("isReady") } } },
        ready: { id: "ready-3", history: "deep", target: "open" },
        alpha: { id: "alpha-4", on: { "user.click": "alpha" } },
        open: {
          on: { "user.click": { actions: "track", guard: "hasItems" } },
          after: {
            "1000": { target: "#mix23.alpha.shut.busy.done", guard: "canRetry" },
            backoff: { target: "shut", guard: ({ context }) => context.retries > 0, reenter: true },
          },
        },
      },
    },
    alpha: {
      type: "parallel",
      on: { toggle: "alpha.shut.busy.wait" },
      always: { target: "alpha.shut", guard: "canRetry" },
      states: {
        load: {
          tags: ["busy", "t7"],
          on: {
            toggle: [
              { target: "#mix23.alpha.load", guard: "isAdmin" },
              { target: "#mix23.alpha.shut.busy" },
            ],
            go: { target: ["#mix23.alpha.load", "#mix23.alpha.shut.busy.load"] },
          },
        },
        shut: {
          initial: "load",
          on: {
            reset: "#mix23.idle",
            tick: { target: "#mix23.idle.open", reenter: true },
            "ui.*": { target: "#done-12", guard: ({ context }) => context.retries > 0 },
          },
          states: {
            load: { on: { "ui.*": "#mix23.alpha.hist" } },
            busy: {
              initial: "wait",
              invoke: { src: "ticker", id: "inv107" },
              on: {
                go: [{ actions: "track", guard: stateIn("#done-12") }, { target: "#mix23.idle" }],
                reset: "#mix23.alpha.shut.busy",
                "user.click": { target: "#mix23.alpha.shut" },
              },
              after: { "1000": "#ready-3" },
              states: {
                wait: {},
                done: {
                  id: "done-12",
                  invoke: [{ src: "ticker", id: "inv126" }, { src: "ticker", systemId: "sys126" }],
                },
                load: { type: "final" },
              },
            },
          },
        },
        hist: { type: "history", history: "deep", target: "load" },
      },
    },
  },
});
