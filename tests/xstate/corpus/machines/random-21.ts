// random: a mixed machine (seed 21): 18 states, 0 history, 0 parallel, 3 with ids.
import { assign, fromCallback, fromPromise, not, setup, stateIn } from "xstate";

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
  id: "mix21",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "busy",
  on: { toggle: [{ target: "#busy-1", guard: "isReady" }, { target: "#busy-1.idle.ready.busy" }] },
  states: {
    busy: {
      id: "busy-1",
      initial: "edit",
      on: { reset: { actions: "track", guard: "hasItems" }, "user.click": "#mix21.ready.edit.done.on" },
      after: { "100": { target: "ready.edit.wait", guard: not("isReady"), reenter: true } },
      states: {
        edit: {
          on: {
            tick: { target: "#mix21.ready.open", guard: "canRetry" },
            submit: { target: "#mix21.ready" },
          },
        },
        beta: {
          tags: ["busy", "t3"],
          on: { tick: [{ actions: "track", guard: not("canRetry") }, { target: "#done-14.view" }] },
        },
        idle: {
          initial: "edit",
          invoke: {
            src: "fetcher",
            id: "inv47",
            onDone: "#mix21.busy.idle.ready",
            onError: "#mix21.ready.edit.done.on",
          },
          on: {
            back: [
              { target: "#mix21.ready.edit.done.view", guard: stateIn("#done-14"), reenter: true },
              { target: "#mix21.ready.edit.done.load", guard: stateIn("#done-14") },
            ],
            next: { target: "#mix21.busy.idle" },
          },
          states: {
            edit: { on: { back: { actions: "track" } }, after: { "1000": "edit" } },
            ready: {
              initial: "busy",
              on: {
                reset: [
                  { target: "#edit-11.wait", guard: not("canRetry") },
                  { target: "#mix21.ready.edit.wait" },
                ],
                back: { target: "#mix21.busy.idle.ready.busy" },
                cancel: "ready.busy",
              },
              onDone: { target: "#mix21.busy.beta" },
              states: {
                busy: {
                  on: {
                    tick: {
                      target: "#mix21.busy.idle.ready",
                      guard: ({ context }) => context.retries > 0,
                    },
                    "user.click": { target: "#mix21.ready.edit.done.view" },
                  },
                },
                open: {
                  on: {
                    next: {
                      target: "#mix21.ready.edit.done.on",
                      guard: ({ context }) => context.retries > 0,
                      reenter: true,
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    ready: {
      initial: "open",
      onDone: { actions: "track" },
      states: {
        open: {
          on: {
            submit: { target: "#mix21.ready.edit.done.load", guard: "hasItems" },
            reset: "#edit-11.wait",
            cancel: "#mix21.ready.edit.done.load",
          },
        },
        edit: {
          id: "edit-11",
          initial: "edit",
          on: { "ui.*": [{ target: "#edit-11.edit", guard: "isAdmin" }, { target: "#edit-11.done" }] },
          onDone: "#done-14.load",
          states: {
            edit: {},
            wait: { on: { toggle: "done.on" } },
            done: {
              id: "done-14",
              initial: "view",
              tags: ["busy", "t14"],
              on: { back: { target: "#mix21.busy.beta" } },
              onDone: { target: "#mix21.busy" },
              states: {
                view: {
                  invoke: { src: "ticker", id: "inv159" },
                  on: {
                    back: [{ target: "view", guard: "isAdmin" }, { target: "#mix21.busy.edit" }],
                    submit: { target: "#edit-11.wait" },
                  },
                },
                load: {
                  on: {
                    "ui.*": "#busy-1.idle.ready.busy",
                    reset: { target: "#busy-1.idle.ready.open", guard: not("isReady") },
                  },
                },
                on: {
                  invoke: {
                    src: "fetcher",
                    id: "inv176",
                    onDone: "#busy-1.beta",
                    onError: { actions: "track", reenter: true },
                  },
                  on: { back: { target: "#mix21.busy.idle.edit", guard: "canRetry" } },
                },
              },
            },
          },
        },
      },
    },
  },
});
