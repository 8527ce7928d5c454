// random: a mixed machine (seed 25): 21 states, 0 history, 2 parallel, 8 with ids.
import { and, assign, fromCallback, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100, long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix25",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "beta",
  tags: ["busy", "t0"],
  on: { go: { target: ".beta.done" }, next: { target: ".beta.load.on", guard: "canRetry" } },
  states: {
    beta: {
      initial: "load",
      tags: "busy",
      states: {
        load: {
          type: "parallel",
          on: { tick: "#mix25.beta.wait.beta.edit" },
          onDone: { actions: "track" },
          states: {
            on: {
              on: {
                tick: [
                  { target: "#mix25.off.on.wait\\.x.open", guard: "isAdmin" },
                  { target: [".", "open"] },
                ],
                back: { target: ["#mix25.beta.load.on", "#mix25.beta.load.open"] },
              },
              after: {
                "1000": { target: "#done-19" },
                "2500": { target: "#busy-13", guard: ({ context }) => context.retries > 0 },
              },
            },
            open: {
              on: {
                reset: [
                  { target: "#mix25.beta.wait.beta.load", guard: and(["isReady", "isAdmin"]) },
                  { target: "#on\\.x-15", guard: "isReady" },
                ],
              },
            },
          },
        },
        idle: {
          on: {
            "ui.*": { actions: "track", guard: ({ context }) => context.retries > 0 },
            submit: [
              { target: "#mix25.off.on.done", guard: or(["canRetry", not("isAdmin")]) },
              { target: "#mix25.off", guard: "isReady" },
            ],
          },
          after: { long: "#mix25.off.on.wait\\.x" },
        },
        wait: {
          initial: "beta",
          on: { back: { actions: "track" } },
          onDone: { target: "#done-17", reenter: true },
          states: {
            beta: {
              initial: "load",
              states: {
                edit: {
                  id: "edit-8",
                  on: {
                    toggle: [
                      { target: "#mix25.beta.load.open", guard: not("isReady") },
                      { target: "load", guard: not("isReady") },
                    ],
                    submit: [
                      {
                        target: "#mix25.off.on",
                        guard: and(["hasItems", "canRetry"]),
                        reenter: true,
                      },
                      { target: "#busy-13", guard: not("hasItems"), reenter: true },
                    ],
                  },
                  after: {
                    short: "#mix25.off",
                    backoff: { target: "#mix25.off.on.done", guard: "isReady" },
                  },
                },
                load: {
                  on: {
                    toggle: { target: "#mix25.beta.wait.shut" },
                    back: [
                      { target: "#mix25.off.on.wait\\.x", guard: or(["canRetry", not("hasItems")]) },
                      { target: "#mix25.beta.load.on" },
                    ],
                    "user.click": ".",
                  },
                  after: { long: "#mix25.off.on\\.x" },
                },
              },
            },
            done: {
              id: "done-10",
              invoke: [{ src: "ticker" }, { src: "ticker" }],
              on: {
                "ui.*": { target: "#mix25.beta.wait.shut", guard: or(["hasItems", not("hasItems")]) },
              },
            },
            shut: { type: "final" },
          },
        },
        done: {
          id: "done-12",
          tags: ["busy", "t12"],
          on: {
            toggle: [
              { target: "#mix25.beta.wait.done", guard: and(["isReady", "hasItems"]) },
              { target: "#mix25.off.on.wait\\.x.done" },
            ],
            next: [
              { target: "#mix25.beta.wait.beta.load", guard: and(["canRetry", "hasItems"]) },
              { target: "#mix25.beta.wait" },
            ],
            reset: { actions: "track", guard: "canRetry" },
          },
        },
      },
    },
    busy: {
      id: "busy-13",
      invoke: { src: "ticker", id: "inv137" },
      on: {
        submit: "#mix25.beta.wait.shut",
        "user.click": { target: "beta.load.on", guard: stateIn("#done-17") },
      },
    },
    off: {
      initial: "on.x",
      on: {
        tick: { target: "off.on.done", guard: or(["hasItems", not("canRetry")]) },
        submit: { target: "#mix25.beta.wait.shut", guard: stateIn("#on\\.x-15") },
      },
      onDone: ".on",
      states: {
        "on.x": {
          id: "on.x-15",
          on: { "ui.*": { target: "#mix25.beta.idle", guard: ({ context }) => context.retries > 0 } },
        },
        on: {
          initial: "done",
          states: {
            done: {
              id: "done-17",
              on: {
                reset: "#mix25.beta.wait.beta.edit",
                next: { target: "#open-20" },
                go: [
                  { target: "#mix25.off.on.wait\\.x", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix25.beta" },
                ],
              },
            },
            "wait.x": {
              type: "parallel",
              on: { reset: { target: "#mix25.off.on.wait\\.x.done", guard: "hasItems" } },
              onDone: { target: "#mix25.off.on.done", guard: not("isReady") },
              states: {
                done: {
                  id: "done-19",
                  on: {
                    toggle: [
                      { target: ["done", "open"], guard: ({ context }) => context.retries > 0 },
                      { target: "#mix25.beta.load.on" },
                    ],
                  },
                },
                open: { id: "open-20" },
              },
            },
          },
        },
      },
    },
  },
});
