// random: a mixed machine (seed 70): 12 states, 1 history, 0 parallel, 2 with ids.
import { and, assign, fromCallback, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100, long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix70",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "done",
  after: { "1000": { target: ".done.edit.open" } },
  states: {
    done: {
      id: "done.1",
      initial: "alpha",
      on: { submit: "#done\\.1.edit.on" },
      onDone: { target: ".edit.open.alpha", guard: "hasItems" },
      states: {
        alpha: {
          invoke: { src: "ticker", id: "inv20" },
          on: {
            tick: "#open-6.wait",
            reset: [
              { target: "#mix70.done.done", guard: ({ context }) => context.retries > 0 },
              { target: "#done\\.1.done", guard: and(["isAdmin", "isAdmin"]) },
            ],
          },
        },
        done: {},
        edit: {
          initial: "on",
          on: {
            next: { target: "#mix70.open", reenter: true },
            go: ".on",
            submit: { target: "#done\\.1.edit.on", guard: "canRetry" },
          },
          always: { actions: "track", guard: ({ context }) => context.retries > 0 },
          states: {
            on: { on: { "user.click": "#done\\.1.edit.ready" }, after: { long: "#done\\.1.edit" } },
            open: {
              id: "open-6",
              initial: "alpha",
              tags: "busy",
              on: {
                reset: "#done\\.1.edit.wait",
                next: "#done\\.1",
                toggle: [
                  { target: "#done\\.1.edit.wait", guard: "canRetry" },
                  { target: "#mix70.done.done", reenter: true },
                ],
              },
              states: {
                alpha: {
                  on: {
                    "user.click": { target: "#mix70.done.edit.on", guard: or(["hasItems", not("isReady")]) },
                  },
                  after: { short: { target: "#mix70.done.edit.wait" } },
                },
                wait: {
                  on: {
                    cancel: { target: "#mix70.done.edit.open.wait", guard: stateIn("#open-6") },
                    "ui.*": [
                      { target: "#mix70.done.edit.on", guard: and(["isAdmin", "isAdmin"]) },
                      { target: "#mix70.open", guard: "hasItems" },
                    ],
                    tick: { target: "#done\\.1.edit.on" },
                  },
                },
              },
            },
            ready: {
              on: {
                submit: { target: "#mix70.done.edit", reenter: true },
                "ui.*": { target: "on", guard: "canRetry" },
                go: { actions: "track" },
              },
            },
            wait: { type: "history" },
          },
        },
      },
    },
    open: { type: "final" },
  },
});
