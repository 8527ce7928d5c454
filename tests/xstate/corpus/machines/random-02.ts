// random: a mixed machine (seed 2): 30 states, 2 history, 2 parallel, 1 with ids.
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
  delays: { short: 100, long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix2",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "on",
  on: {
    reset: [
      { target: ".load.done.load", guard: "isReady", reenter: true },
      { target: "#mix2.load.done.wait.idle" },
    ],
    tick: "#mix2.busy",
  },
  states: {
    on: {
      on: {
        tick: {
          target: "#mix2.load.done.load",
          guard: ({ context }) => context.retries > 0,
          reenter: true,
        },
      },
    },
    busy: {
      initial: "off",
      on: { cancel: "load.idle.view.hist" },
      after: {
        long: { target: "#mix2.load.done.wait.beta", guard: not("isReady") },
        backoff: { target: "busy.on.done", guard: not("canRetry") },
      },
      states: {
        off: {
          on: {
            go: [
              { target: "#mix2.load.done.load.load", guard: "hasItems" },
              { target: "#mix2.load.done.wait.on" },
            ],
            tick: [
              { target: "#mix2.load.done.wait.idle", guard: ({ context }) => context.retries > 0 },
              { target: "#mix2.load.idle.idle" },
            ],
          },
          after: { long: { target: "#mix2.on", guard: and(["canRetry", "isReady"]) } },
        },
        on: {
          initial: "done",
          on: { submit: "#mix2.load.idle.view.idle", toggle: "#mix2.busy.on.alpha" },
          always: { actions: "track", guard: or(["isAdmin", not("hasItems")]) },
          states: {
            done: {
              on: {
                toggle: { actions: "track" },
                "ui.*": { target: "#mix2.busy.shut", guard: ({ context }) => context.retries > 0 },
              },
            },
            alpha: {
              on: {
                next: "#mix2.load.idle.busy.edit",
                toggle: [
                  { target: "#mix2.load.done.wait.ready", guard: "hasItems" },
                  { target: "#mix2.load.idle.view.busy", guard: stateIn("#edit-16"), reenter: true },
                ],
                back: {
                  target: "#mix2.load.done.wait.ready",
                  guard: ({ context }) => context.retries > 0,
                },
              },
              after: { short: "#mix2.on" },
            },
          },
        },
        shut: {
          on: {
            reset: { target: "#mix2.busy", guard: ({ context }) => context.retries > 0 },
            submit: { target: "#mix2.load.idle.view", guard: "isAdmin", reenter: true },
          },
        },
      },
    },
    load: {
      type: "parallel",
      on: { back: { target: ".idle.busy", guard: "isReady" } },
      states: {
        shut: { on: { toggle: "done.load" } },
        idle: {
          initial: "view",
          on: { cancel: { target: "#mix2.busy.on.alpha" } },
          onDone: { target: ["shut", ".busy.edit"] },
          states: {
            view: {
              type: "parallel",
              invoke: { src: "fetcher", onError: { actions: "track", guard: "isAdmin" } },
              on: { go: { target: "#mix2.busy.on.done", reenter: true }, tick: "#mix2.load.done" },
              onDone: { target: "#mix2.load.idle.busy.edit" },
              states: {
                idle: {
                  after: {
                    "100": { target: "#mix2.load.done.load.load", guard: "hasItems", reenter: true },
                  },
                },
                busy: {
                  invoke: {
                    src: "fetcher",
                    onDone: { target: ["#mix2.load.idle.view.idle", "."] },
                    onError: { actions: "track", guard: "isReady" },
                  },
                  on: { "ui.*": { target: "#mix2.load.idle.idle" } },
                },
                hist: { history: "deep", target: "busy" },
              },
            },
            busy: {
              initial: "edit",
              states: {
                edit: {
                  id: "edit-16",
                  after: {
                    "100": { target: "#mix2.load.idle.view.hist" },
                    backoff: { actions: "track", guard: "isAdmin" },
                  },
                },
                off: { on: { cancel: "#mix2.busy.on.alpha" } },
                gamma: { type: "final" },
              },
            },
            idle: { on: { "ui.*": { target: "busy", guard: "isReady" }, toggle: "#mix2.load" } },
          },
        },
        done: {
          initial: "load",
          invoke: { src: "ticker", id: "inv208", systemId: "sys206" },
          on: { cancel: { target: "#mix2.busy.on.alpha", guard: stateIn("#edit-16") } },
          states: {
            load: {
              initial: "gamma",
              invoke: { src: "ticker", id: "inv212" },
              on: {
                submit: [{ target: "#mix2.load.done.load", guard: "canRetry" }, { actions: "track" }],
              },
              onDone: { target: "#mix2.load.done", guard: stateIn("#edit-16") },
              states: { gamma: {}, load: { type: "final" } },
            },
            wait: {
              initial: "idle",
              tags: ["busy", "t24"],
              on: {
                "user.click": { target: "#mix2.load.idle.view.idle" },
                tick: "#mix2.load.done.load.load",
              },
              states: {
                idle: {
                  on: {
                    toggle: "#mix2.load.done.wait.on",
                    back: [
                      { target: "#mix2.load.done", guard: and(["canRetry", "isReady"]) },
                      { target: "#mix2.load.idle.busy.off" },
                    ],
                    "ui.*": { target: "#mix2.busy.on.alpha" },
                  },
                },
                on: { type: "final" },
                beta: {
                  on: {
                    next: [
                      { target: "#mix2.load", guard: "isAdmin", reenter: true },
                      { target: "#mix2.load.done.load.gamma" },
                    ],
                    submit: { target: "#mix2.load.idle.idle" },
                  },
                  always: { target: "#mix2.load.hist", guard: and(["isReady", "hasItems"]) },
                },
                ready: {
                  after: {
                    "1000": { target: "#mix2.busy.on", guard: and(["canRetry", "hasItems"]), reenter: true },
                  },
                },
              },
            },
          },
        },
        hist: { type: "history", history: "shallow", target: "shut" },
      },
    },
  },
});
