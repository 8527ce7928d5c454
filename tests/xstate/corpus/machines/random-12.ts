// random: a mixed machine (seed 12): 8 states, 1 history, 0 parallel, 4 with ids.
import { and, assign, fromCallback, fromPromise, not, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix12",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  invoke: { src: "ticker" },
  on: {
    toggle: "#mix12.open",
    "ui.*": [
      { actions: "track", guard: not("isAdmin"), reenter: true },
      { target: "#off-3.off", reenter: true },
    ],
    submit: { target: "#mix12.off.idle", reenter: true },
  },
  after: { "100": "#mix12.off.edit" },
  states: {
    busy: {
      tags: "busy",
      invoke: { src: "ticker", systemId: "sys11" },
      on: {
        back: [
          { target: "#mix12.off.off", guard: and(["isReady", "isReady"]), reenter: true },
          { target: "busy" },
        ],
        cancel: "#mix12.off",
      },
    },
    open: {
      id: "open-2",
      on: {
        "user.click": { target: "." },
        submit: [
          { target: "#mix12.off.edit", guard: "isAdmin" },
          { target: "#off-3.ready", guard: not("isAdmin") },
        ],
      },
    },
    off: {
      id: "off-3",
      initial: "ready",
      on: {
        submit: [
          { actions: "track", guard: and(["isAdmin", "isReady"]) },
          { target: "off.idle", reenter: true },
        ],
        "ui.*": "#off-3.idle",
      },
      states: {
        ready: { id: "ready.4", invoke: { src: "fetcher", systemId: "sys40" } },
        off: { history: true },
        edit: { id: "edit-6", type: "final" },
        idle: {
          invoke: { src: "ticker" },
          on: {
            next: { actions: "track" },
            "user.click": "#mix12.off.idle",
            reset: { target: ".", guard: "hasItems" },
          },
        },
      },
    },
  },
});
