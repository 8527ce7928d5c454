// random: a mixed machine (seed 5): 6 states, 0 history, 0 parallel, 3 with ids.
import { assign, fromCallback, fromPromise, not, or, setup } from "xstate";

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
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix5",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  states: {
    wait: {
      on: {
        reset: [
          { actions: "track", guard: or(["isAdmin", not("isReady")]), reenter: true },
          { actions: "track" },
        ],
      },
    },
    busy: {
      id: "busy.2",
      initial: "busy",
      on: {
        back: { target: "#mix5.busy.busy", reenter: true },
        "user.click": { target: "#mix5.busy", guard: or(["canRetry", not("canRetry")]) },
      },
      states: {
        idle: {
          invoke: { src: "ticker", id: "inv36", systemId: "sys36" },
          on: {
            next: [
              { target: "#busy\\.2", guard: ({ context }) => context.retries > 0 },
              { target: "busy", guard: ({ context }) => context.retries > 0, reenter: true },
            ],
            back: "#mix5.busy.busy",
          },
        },
        busy: {
          id: "busy-4",
          invoke: { src: "fetcher", onDone: "#mix5.busy" },
          on: {
            toggle: "#mix5.busy.busy",
            tick: { target: "open", reenter: true },
            cancel: { target: "#mix5.busy.busy" },
          },
        },
        open: {
          id: "open-5",
          on: {
            reset: [
              { target: "#mix5.wait", guard: ({ context }) => context.retries > 0 },
              { target: "#mix5.busy.idle" },
            ],
            cancel: { target: "#busy\\.2.idle" },
            toggle: { target: "busy" },
          },
        },
      },
    },
  },
});
