// random: a mixed machine (seed 17): 15 states, 0 history, 1 parallel, 4 with ids.
import { and, assign, fromCallback, fromPromise, not, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
  },
  delays: { short: 100 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix17",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  on: {
    "user.click": { target: "#mix17.busy.done", guard: "isAdmin" },
    next: "#mix17.idle",
    toggle: [
      { target: "#mix17.off.wait\\.x.open.alpha", guard: and(["canRetry", "canRetry"]) },
      { actions: "track" },
    ],
  },
  states: {
    idle: {
      initial: "beta",
      on: {
        submit: { target: ["#mix17.idle.shut", "#mix17.busy.done"] },
        cancel: { target: "#beta-2", guard: and(["isAdmin", "isReady"]) },
        tick: "off.wait\\.x",
      },
      states: {
        beta: {
          id: "beta-2",
          invoke: [
            {
              src: "fetcher",
              id: "inv21",
              onDone: "#mix17.off",
              onError: { target: "#mix17.busy.done", guard: "isReady" },
            },
            { src: "fetcher", onDone: "#load-7" },
          ],
          on: {
            submit: [
              { target: "#load-7", guard: ({ context }) => context.retries > 0 },
              { target: "#mix17.off.idle" },
            ],
            back: { target: "#mix17.off.wait\\.x.open.view", guard: "isReady" },
          },
          after: { short: { target: "#mix17.off", reenter: true } },
        },
        wait: { on: { back: "#mix17.idle", tick: { target: "#mix17.idle" } } },
        shut: { type: "final" },
      },
    },
    busy: {
      initial: "done",
      tags: "busy",
      invoke: { src: "ticker", id: "inv58" },
      on: { submit: "#mix17.off.wait\\.x.open.view", go: { target: "#load-7" } },
      states: {
        done: {
          id: "done-6",
          tags: ["busy", "t6"],
          on: {
            "user.click": [
              { target: "#mix17.off.wait\\.x", guard: ({ context }) => context.retries > 0 },
              { actions: "track" },
            ],
            "ui.*": { target: "#mix17.off.wait\\.x.beta" },
            toggle: "#mix17.busy.load",
          },
        },
        load: {
          id: "load-7",
          on: {
            tick: "#mix17.off.wait\\.x.open",
            "user.click": { target: "#mix17.off.idle", guard: stateIn("#view-13") },
            reset: { target: "." },
          },
          after: { short: { target: "#mix17.busy.done", reenter: true } },
        },
      },
    },
    off: {
      initial: "wait.x",
      on: {
        "ui.*": { target: "#mix17.off.idle", reenter: true },
        submit: { target: ["idle.beta", "#mix17.busy"] },
      },
      states: {
        idle: {},
        "wait.x": {
          initial: "beta",
          invoke: {
            src: "fetcher",
            id: "inv109",
            onDone: { target: "#done-6", guard: "isReady" },
            onError: { actions: "track", guard: and(["canRetry", "isAdmin"]) },
          },
          on: {
            "user.click": { target: "#mix17.off.idle", reenter: true },
            toggle: { target: "#mix17.off.wait\\.x.beta", guard: not("canRetry") },
          },
          states: {
            beta: {},
            open: {
              initial: "view",
              on: { submit: "#mix17.off.wait\\.x.open.view" },
              onDone: { target: "#mix17.idle.beta", guard: "isAdmin" },
              states: {
                view: {
                  id: "view-13",
                  on: { go: { target: "#mix17.busy" }, "ui.*": { target: "#mix17.idle.beta" } },
                },
                alpha: {},
              },
            },
          },
        },
      },
    },
  },
});
