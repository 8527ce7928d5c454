// random: a mixed machine (seed 53): 25 states, 4 history, 4 parallel, 2 with ids.
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
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix53",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  invoke: { src: "fetcher", id: "inv01" },
  on: { "user.click": "#mix53.open.shut.edit.beta" },
  states: {
    done: {
      on: {
        back: { target: "open.hist", guard: and(["isAdmin", "hasItems"]), reenter: true },
        "ui.*": "#mix53.open.shut",
      },
    },
    open: {
      type: "parallel",
      invoke: { src: "ticker", id: "inv28" },
      on: {
        reset: "#mix53.done",
        cancel: { target: ".gamma.done", guard: and(["isReady", "isAdmin"]), reenter: true },
      },
      states: {
        shut: {
          initial: "load",
          states: {
            load: {
              on: {
                back: { target: "#mix53.wait" },
                next: [
                  { target: "#mix53.wait", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix53.open.gamma.alpha.view", guard: not("isReady") },
                ],
              },
              after: {
                "100": { target: "#mix53.open.gamma", guard: "isReady" },
                "2500": { target: "#mix53.done", guard: and(["hasItems", "isAdmin"]) },
              },
              always: { target: "#mix53.open.shut.edit.beta", guard: or(["isReady", not("isAdmin")]) },
            },
            done: {
              on: {
                reset: { target: "#done-17", guard: or(["hasItems", not("hasItems")]) },
                tick: "#mix53.open",
                submit: { target: "#mix53.open" },
              },
              always: { target: "#mix53.open.shut.edit.beta", guard: "isAdmin" },
            },
            edit: {
              type: "parallel",
              on: {
                back: [{ target: "#mix53.wait.idle.beta", guard: "canRetry" }, { target: "#mix53.wait" }],
                tick: { target: "#mix53.open.shut", guard: "isAdmin" },
                "ui.*": [
                  { target: "#mix53.open.hist", guard: "isReady" },
                  { target: "#mix53.open.gamma.off" },
                ],
              },
              onDone: "#mix53.open.gamma.alpha.hist",
              states: {
                beta: {
                  tags: "busy",
                  on: {
                    "user.click": [
                      {
                        target: "#mix53.open.shut.edit.beta",
                        guard: ({ context }) => context.retries > 0,
                      },
                      { actions: "track", guard: stateIn("#edit-9") },
                    ],
                    submit: { target: ["beta", "#done-8"], reenter: true },
                    back: "#mix53.wait.idle",
                  },
                },
                done: { id: "done-8" },
                edit: { id: "edit-9" },
              },
            },
            alpha: { type: "history", target: "done" },
          },
        },
        gamma: {
          initial: "alpha",
          invoke: [
            {
              src: "fetcher",
              onDone: { target: ["#mix53.open.shut.done", "gamma.alpha.on"], guard: "hasItems" },
            },
            { src: "ticker" },
          ],
          on: {
            back: { target: ["shut.edit.beta", "gamma.alpha.on"] },
            toggle: "#mix53.wait",
            go: [
              { target: ".alpha", guard: and(["hasItems", "hasItems"]) },
              { target: "#edit-9", guard: and(["canRetry", "isAdmin"]) },
            ],
          },
          states: {
            alpha: {
              type: "parallel",
              onDone: {
                target: "#mix53.open.gamma.alpha.hist",
                guard: and(["canRetry", "canRetry"]),
                reenter: true,
              },
              states: {
                on: {
                  on: {
                    tick: [
                      { target: "#mix53.open.gamma.alpha.on", guard: "isAdmin" },
                      { target: "#mix53.open.shut.alpha", guard: not("isAdmin") },
                    ],
                  },
                },
                view: {
                  on: {
                    next: { target: "#mix53.open.gamma", guard: "hasItems" },
                    submit: "#mix53.beta",
                  },
                },
                hist: { history: true },
              },
            },
            off: { type: "final" },
            done: { id: "done-17", type: "history", history: "deep" },
          },
        },
        hist: { type: "history", target: "shut.edit" },
      },
    },
    wait: {
      initial: "on",
      on: { "user.click": { target: "#mix53.open.shut.load" }, "ui.*": "wait.idle.beta" },
      states: {
        on: { always: { target: "#mix53.wait.on", guard: "canRetry" } },
        idle: {
          type: "parallel",
          after: { long: { target: "#mix53.open.shut.done" } },
          onDone: { target: "#mix53.open.gamma.alpha.view", reenter: true },
          states: {
            beta: {
              invoke: { src: "ticker" },
              on: {
                reset: { actions: "track" },
                next: { target: "#mix53.open.shut.edit.beta", reenter: true },
              },
            },
            edit: { on: { toggle: "#mix53.wait.on", cancel: { target: "#mix53.open" } } },
          },
        },
      },
    },
    beta: { on: { back: { target: "wait.idle.beta" } } },
  },
});
