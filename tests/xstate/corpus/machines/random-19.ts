// random: a mixed machine (seed 19): 29 states, 2 history, 2 parallel, 2 with ids.
import { and, assign, fromCallback, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix19",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  invoke: { src: "ticker", id: "inv06" },
  on: {
    next: { target: "#mix19.beta.alpha", guard: ({ context }) => context.retries > 0 },
    toggle: { target: ".open" },
  },
  states: {
    idle: {
      tags: "busy",
      on: {
        go: { target: "#mix19.view.off", guard: ({ context }) => context.retries > 0 },
        tick: "#mix19.view.off",
      },
    },
    open: {
      initial: "ready",
      on: {
        back: [
          { target: "beta.gamma", guard: "isReady" },
          { target: "#mix19.view", guard: or(["isReady", not("hasItems")]) },
        ],
      },
      always: { target: "#mix19.view.off.open", guard: stateIn("#view-18") },
      onDone: { target: "#mix19.beta.alpha.ready", guard: "hasItems" },
      states: {
        ready: {
          on: {
            submit: [
              { target: "#view-18.view.shut", guard: not("hasItems"), reenter: true },
              { target: "#mix19.beta.ready.idle", guard: or(["isReady", not("hasItems")]) },
            ],
            toggle: "#mix19.beta.ready.idle",
          },
          always: { target: "#mix19.view.view.open", guard: ({ context }) => context.retries > 0 },
        },
        edit: {
          initial: "busy",
          on: {
            next: { target: "#mix19.open.ready" },
            submit: { target: "#mix19.view.busy" },
            reset: { target: "#mix19.beta.gamma" },
          },
          states: {
            busy: {
              on: {
                "user.click": [
                  { target: "#mix19.beta.ready.idle.idle", guard: not("isReady") },
                  { target: "#mix19.beta.alpha.ready" },
                ],
                back: { target: "#mix19.beta", guard: "canRetry" },
                toggle: { target: "#mix19.beta.ready.idle.beta", guard: and(["hasItems", "hasItems"]) },
              },
              after: {
                "100": "#mix19.beta",
                "2500": { target: ".", guard: ({ context }) => context.retries > 0 },
              },
            },
            wait: {
              invoke: { src: "ticker" },
              on: {
                tick: [
                  { target: "#mix19.view.off.open", guard: and(["isReady", "isReady"]) },
                  { target: "#view-18.off.hist", guard: or(["canRetry", not("canRetry")]) },
                ],
                reset: [
                  { target: "#mix19.view.off.hist", guard: stateIn("#view-18") },
                  { target: "#mix19.beta.ready", guard: or(["isReady", not("hasItems")]) },
                ],
              },
            },
          },
        },
      },
    },
    beta: {
      type: "parallel",
      invoke: { src: "ticker", id: "inv78" },
      states: {
        alpha: {
          initial: "ready",
          on: {
            next: { target: "#mix19.beta.ready.gamma", guard: ({ context }) => context.retries > 0 },
            cancel: "#mix19.beta.ready.idle.idle",
            toggle: "#mix19.beta.gamma",
          },
          states: {
            ready: {
              on: { cancel: "#mix19.beta.ready", "ui.*": { actions: "track" } },
              after: { long: { target: "#mix19.beta.alpha", guard: ({ context }) => context.retries > 0 } },
            },
            beta: {
              tags: ["busy", "t10"],
              on: {
                go: { target: "#mix19.open.edit.busy", guard: stateIn("#view-18") },
                cancel: { target: "#mix19.beta.ready.idle", reenter: true },
              },
            },
          },
        },
        gamma: {
          on: {
            toggle: { target: ["#mix19.beta.alpha.beta", "#mix19.beta.gamma"] },
            reset: [
              { target: "#view-18.view.open", guard: ({ context }) => context.retries > 0 },
              { target: ["#mix19.beta.alpha", "#mix19.beta.gamma"], reenter: true },
            ],
            cancel: { target: "#mix19.view.busy", guard: "hasItems" },
          },
          after: { "1000": { target: "#view-18.off" } },
        },
        ready: {
          initial: "idle",
          on: {
            reset: [
              { actions: "track", guard: stateIn("#view-18") },
              { target: "#view-18.off.open", guard: not("canRetry") },
            ],
            cancel: { target: "#mix19.view.off" },
            "user.click": [
              { target: "#mix19.view.off.on", guard: or(["isAdmin", not("canRetry")]) },
              { target: "#mix19.view.busy" },
            ],
          },
          states: {
            idle: {
              initial: "idle",
              states: {
                beta: { tags: "busy", after: { long: "#view-18.off.beta" } },
                idle: { on: { go: "#mix19.view" } },
              },
            },
            gamma: { history: "deep", target: "idle" },
            busy: { on: { back: { target: "#mix19.beta.ready.gamma" }, toggle: "idle.idle" } },
          },
        },
      },
    },
    view: {
      id: "view-18",
      initial: "busy",
      invoke: [{ src: "ticker" }, { src: "ticker", id: "inv188" }],
      on: { "user.click": { actions: "track", reenter: true }, tick: { target: "#mix19.view" } },
      states: {
        busy: {
          on: {
            toggle: { target: "#mix19.beta" },
            submit: { actions: "track", guard: and(["hasItems", "canRetry"]) },
          },
        },
        view: {
          initial: "gamma",
          after: { "1000": "#mix19.open.edit.busy" },
          onDone: "#mix19.beta",
          states: {
            gamma: {
              on: {
                tick: {
                  target: "#view-18.off.on",
                  guard: ({ context }) => context.retries > 0,
                  reenter: true,
                },
                back: [
                  { target: "#view-18.off.beta", guard: and(["isReady", "canRetry"]) },
                  { target: "#mix19.beta.ready.gamma" },
                ],
                "ui.*": [{ target: "#view-18.off", guard: "isAdmin" }, { actions: "track" }],
              },
            },
            shut: { type: "final" },
            open: {
              tags: "busy",
              on: {
                toggle: "#mix19.beta.alpha",
                tick: { target: "#view-18.off.open" },
                cancel: { target: "#mix19.open.edit.wait", guard: "isReady" },
              },
              after: { "100": { actions: "track", guard: "isAdmin" } },
            },
          },
        },
        off: {
          type: "parallel",
          tags: "busy",
          on: {
            go: { target: "#view-18.off.hist" },
            "user.click": [
              { target: "#mix19.view", guard: stateIn("#view-18") },
              { target: "#mix19.beta", reenter: true },
            ],
          },
          states: {
            beta: {
              on: {
                go: { target: ["beta", "#on-26"] },
                reset: { target: "#mix19.beta", guard: "isReady" },
                "ui.*": { target: "#mix19.beta.ready.idle.idle" },
              },
              after: {
                long: { target: "#mix19.open.edit" },
                backoff: { target: "#mix19.beta", guard: not("canRetry") },
              },
            },
            on: {
              id: "on-26",
              always: { target: "#mix19.view.view.gamma", guard: stateIn("#on-26"), reenter: true },
            },
            open: {
              on: {
                next: { target: "#mix19.open.edit", reenter: true },
                submit: [{ target: "#mix19.idle", guard: "isAdmin" }, { target: "#mix19.view.off.on" }],
              },
              always: { target: "#mix19.beta.ready.busy", guard: stateIn("#view-18") },
            },
            hist: { history: true, target: "open" },
          },
        },
      },
    },
  },
});
