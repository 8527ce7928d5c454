// random: a mixed machine (seed 22): 15 states, 1 history, 1 parallel, 5 with ids.
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
  id: "mix22",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "done.x",
  invoke: [{ src: "fetcher", id: "inv09" }, { src: "ticker" }],
  on: { tick: [{ target: "#mix22.off.alpha.view", guard: "canRetry" }, { target: ".off.alpha.view" }] },
  states: {
    "done.x": { always: { target: "off.alpha.on", guard: ({ context }) => context.retries > 0 } },
    shut: { type: "history", history: "shallow" },
    off: {
      type: "parallel",
      on: {
        cancel: { target: "." },
        "user.click": [
          { target: "#alpha\\.4.view.idle", guard: "hasItems" },
          { actions: "track", guard: stateIn("#off-7") },
        ],
        go: [
          { target: "#mix22.off.view.busy", guard: "isAdmin", reenter: true },
          { target: "off.alpha.view.off" },
        ],
      },
      onDone: { target: ".alpha.view.busy" },
      states: {
        alpha: {
          id: "alpha.4",
          initial: "view",
          on: { cancel: { target: "#mix22.off.alpha" } },
          states: {
            view: {
              initial: "idle",
              on: {
                "user.click": "#mix22.off.alpha",
                reset: [
                  { target: "#alpha\\.13", guard: or(["isReady", not("isAdmin")]) },
                  { target: "#alpha\\.4.view", guard: and(["hasItems", "hasItems"]) },
                ],
              },
              states: {
                idle: {
                  on: {
                    submit: [
                      { actions: "track", guard: "isAdmin" },
                      { target: "#mix22.off.alpha", guard: not("isReady") },
                    ],
                    toggle: { target: "#mix22.off.done", reenter: true },
                    "user.click": { actions: "track", reenter: true },
                  },
                },
                off: {
                  id: "off-7",
                  tags: "busy",
                  invoke: { src: "ticker" },
                  on: {
                    next: { target: "#mix22.off.alpha.idle", guard: or(["hasItems", not("hasItems")]) },
                  },
                },
                busy: {
                  on: {
                    "ui.*": [{ target: "#alpha\\.13", guard: not("isReady") }, { target: "#mix22.off" }],
                    next: { target: "#mix22.off.alpha.on" },
                  },
                },
              },
            },
            on: { on: { go: "#busy\\.14" } },
            idle: { on: { toggle: "#alpha\\.4.view", next: "#off-7" } },
          },
        },
        done: { id: "done-11" },
        view: {
          initial: "alpha",
          on: {
            toggle: { target: "#mix22.done\\.x" },
            go: [
              { target: ["#alpha\\.4", "#done-11"], guard: stateIn("#done-11") },
              { target: "#alpha\\.4.view.idle", reenter: true },
            ],
            reset: { actions: "track", guard: stateIn("#done-11") },
          },
          states: {
            alpha: {
              id: "alpha.13",
              on: {
                "user.click": {
                  target: "#mix22.off.alpha.view.busy",
                  guard: or(["hasItems", not("isReady")]),
                  reenter: true,
                },
                "ui.*": { target: "#mix22.off.alpha.view" },
                back: { target: "#alpha\\.4.view.off", guard: ({ context }) => context.retries > 0 },
              },
            },
            busy: { id: "busy.14", type: "final" },
          },
        },
      },
    },
  },
});
