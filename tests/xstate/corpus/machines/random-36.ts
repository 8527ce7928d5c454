// random: a mixed machine (seed 36): 28 states, 2 history, 3 parallel, 5 with ids.
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
  id: "mix36",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "wait",
  invoke: { src: "fetcher", systemId: "sys04", onError: "#edit-7.ready.idle.view" },
  on: {
    go: [
      { target: "#ready\\.16.wait", guard: ({ context }) => context.retries > 0 },
      { actions: "track" },
    ],
  },
  states: {
    wait: {
      initial: "view",
      states: {
        view: {
          initial: "gamma",
          tags: ["busy", "t2"],
          on: {
            cancel: [
              { target: "#edit-7.view.open", guard: stateIn("#ready\\.16") },
              { target: "#mix36.wait.view", reenter: true },
            ],
            toggle: { target: "#mix36.edit.ready.idle", guard: and(["canRetry", "canRetry"]) },
          },
          states: { gamma: { on: { cancel: "#mix36.wait" } }, view: {} },
        },
        wait: {
          invoke: {
            src: "fetcher",
            id: "inv51",
            onDone: { target: "#ready\\.16.wait", guard: not("hasItems") },
          },
          on: {
            back: { target: "#edit-7.shut.beta.alpha", guard: "canRetry", reenter: true },
            submit: "#mix36.edit.ready.idle",
            cancel: { target: "#view-8.alpha", guard: ({ context }) => context.retries > 0 },
          },
        },
        off: { type: "final", tags: ["busy", "t6"] },
      },
    },
    edit: {
      id: "edit-7",
      type: "parallel",
      states: {
        view: {
          id: "view-8",
          initial: "open",
          invoke: [
            { src: "ticker", id: "inv89", systemId: "sys80" },
            {
              src: "fetcher",
              onDone: { target: "#mix36.wait.view.view", guard: ({ context }) => context.retries > 0 },
            },
          ],
          on: {
            back: [
              { target: [".alpha", "#ready\\.16.idle.view"], guard: not("isAdmin") },
              { target: "#mix36.edit.shut.beta.alpha" },
            ],
          },
          after: { "1000": { target: [".alpha", "#idle-17.done"], reenter: true } },
          always: { actions: "track", guard: "isReady" },
          states: {
            open: { on: { submit: "#edit-7.shut.beta.view" } },
            shut: {
              invoke: { src: "ticker" },
              on: {
                "ui.*": [
                  { target: "#edit-7.view.alpha", guard: "canRetry", reenter: true },
                  { target: "#ready\\.16" },
                ],
                back: "#mix36.wait.wait",
                reset: { target: "#edit-7.shut", guard: "isReady" },
              },
              always: { target: "#mix36.wait.view.view", guard: "isReady" },
            },
            alpha: {
              type: "parallel",
              states: {
                open: { on: { toggle: { target: "#edit-7.view.shut", guard: "canRetry" } } },
                view: {
                  on: {
                    back: "#edit-7.ready.idle.done",
                    "user.click": { target: "#mix36.edit.ready.wait" },
                    next: "#edit-7.ready.idle",
                  },
                },
                load: { id: "load-14" },
                hist: { history: true, target: "load" },
              },
            },
          },
        },
        ready: {
          id: "ready.16",
          initial: "idle",
          on: {
            submit: { target: ["#view-8", "#mix36.edit.ready.idle.view"] },
            toggle: [
              { target: "#edit-7", guard: "isReady" },
              { actions: "track", guard: "canRetry", reenter: true },
            ],
          },
          states: {
            idle: {
              id: "idle-17",
              type: "parallel",
              states: {
                view: {
                  invoke: { src: "fetcher", onDone: { target: "#mix36.wait.view", reenter: true } },
                  on: { "user.click": { actions: "track", guard: not("isReady") } },
                },
                done: {
                  on: {
                    go: { target: "#mix36.wait.wait", guard: stateIn("#view-8") },
                    back: { actions: "track", guard: or(["isAdmin", not("canRetry")]) },
                  },
                },
              },
            },
            wait: { type: "history", target: "idle" },
          },
        },
        shut: {
          initial: "beta",
          invoke: {
            src: "fetcher",
            onDone: "#mix36.edit.view.shut",
            onError: { target: "#edit-7.ready.wait", guard: stateIn("#load-14") },
          },
          on: {
            tick: [
              {
                target: ["#view-8.alpha.view", "#mix36.edit.ready.idle.done"],
                guard: ({ context }) => context.retries > 0,
              },
              { actions: "track", guard: stateIn("#ready\\.16") },
            ],
            "user.click": "#edit-7.view.alpha",
          },
          onDone: { target: "#mix36.edit.ready", guard: not("isReady") },
          states: {
            beta: {
              initial: "alpha",
              tags: ["busy", "t22"],
              onDone: { target: "#mix36.edit.view.alpha.hist" },
              states: {
                alpha: { on: { "user.click": { target: "#mix36.wait.wait", reenter: true } } },
                view: { on: { next: "#mix36.edit.shut.beta" } },
              },
            },
            off: { type: "final" },
            open: { on: { cancel: { target: "#edit-7" } } },
            load: {
              on: {
                reset: "#mix36.edit.shut.open",
                toggle: [
                  { target: "#mix36.edit.shut.off", guard: "hasItems" },
                  { actions: "track", guard: "isAdmin" },
                ],
              },
            },
          },
        },
      },
    },
  },
});
