// random: a mixed machine (seed 45): 16 states, 2 history, 2 parallel, 2 with ids.
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
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix45",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  on: { "ui.*": { target: "#mix45.on.ready", guard: and(["isReady", "isAdmin"]) } },
  states: {
    on: {
      initial: "shut",
      states: {
        shut: {
          id: "shut-2",
          type: "parallel",
          on: { cancel: { target: "#mix45.on.off", reenter: true } },
          onDone: { target: "#mix45.on.shut" },
          states: {
            busy: { id: "busy-3" },
            load: {
              on: {
                toggle: [
                  { actions: "track", guard: not("hasItems") },
                  { target: "#mix45.view.load.wait", guard: "isReady" },
                ],
              },
            },
            alpha: { invoke: { src: "ticker", systemId: "sys52" } },
            hist: { type: "history" },
          },
        },
        ready: { type: "final" },
        off: { on: { reset: { target: "#mix45.view.load.beta", guard: and(["canRetry", "isAdmin"]) } } },
      },
    },
    view: {
      initial: "load",
      on: { "user.click": { actions: "track", guard: "isAdmin", reenter: true } },
      onDone: "#mix45.on.shut.hist",
      states: {
        load: {
          initial: "view",
          invoke: { src: "ticker", systemId: "sys108" },
          on: { reset: { target: "load.view" }, back: "#mix45.hist" },
          states: {
            view: {
              invoke: [{ src: "ticker" }, { src: "ticker", id: "inv112" }],
              on: {
                go: [
                  { target: "#busy-3", guard: "isAdmin" },
                  {
                    target: "#mix45.on.shut.alpha",
                    guard: ({ context }) => context.retries > 0,
                    reenter: true,
                  },
                ],
              },
            },
            beta: {
              on: {
                reset: "#mix45.hist",
                toggle: "#mix45.on.ready",
                "user.click": [{ target: "#shut-2.busy", guard: stateIn("#busy-3") }, { target: "#busy-3" }],
              },
              after: { long: "#mix45.on" },
              always: { actions: "track", guard: and(["isAdmin", "isAdmin"]) },
            },
            wait: { on: { next: { target: "beta" }, cancel: { target: "#shut-2" } } },
          },
        },
        beta: {
          invoke: [
            { src: "fetcher", onError: { target: "#mix45.view.load", guard: "isReady" } },
            { src: "ticker", id: "inv143" },
          ],
          on: { cancel: { target: "#mix45.view.beta", guard: not("isAdmin") } },
        },
      },
    },
    hist: { type: "history" },
  },
});
