// random: a mixed machine (seed 24): 13 states, 2 history, 1 parallel, 3 with ids.
import { and, assign, fromCallback, not, or, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix24",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "shut",
  invoke: [{ src: "ticker", id: "inv04" }, { src: "ticker" }],
  on: { cancel: { target: "#mix24.shut.alpha.wait" }, submit: "#beta-12", toggle: { target: ".ready" } },
  states: {
    shut: {
      type: "parallel",
      on: { tick: { target: "#hist-9" }, toggle: { actions: "track" } },
      states: {
        busy: {},
        alpha: {
          initial: "done",
          invoke: { src: "ticker", systemId: "sys32" },
          on: {
            cancel: { target: "busy", guard: "hasItems", reenter: true },
            reset: { target: "#mix24.shut.alpha.done" },
          },
          onDone: { target: "#mix24.shut.alpha.done", reenter: true },
          states: {
            done: {
              id: "done-4",
              on: { "user.click": { target: "#mix24.beta" }, "ui.*": "#mix24.shut.alpha.gamma" },
              always: { target: "#hist-9", guard: and(["isAdmin", "canRetry"]) },
            },
            gamma: {},
            wait: { id: "wait.6" },
            alpha: { type: "history", history: "deep", target: "done" },
          },
        },
        off: {
          on: { "ui.*": { target: ["#mix24.shut.busy", "#mix24.shut.alpha.wait"] } },
          after: { "1000": "#mix24.shut.alpha.gamma" },
        },
        hist: { id: "hist-9", type: "history", history: "deep" },
      },
    },
    ready: { on: { next: { target: "#mix24.shut.busy", guard: "isAdmin", reenter: true } } },
    off: {
      on: {
        next: { target: "#mix24.beta", guard: or(["canRetry", not("canRetry")]) },
        "user.click": [{ target: "#mix24.shut.alpha.wait", guard: "isReady" }, { target: "#done-4" }],
      },
      after: { long: { target: "shut.alpha", reenter: true } },
    },
    beta: { id: "beta-12" },
  },
});
