// random: a mixed machine (seed 13): 25 states, 3 history, 2 parallel, 7 with ids.
import { and, assign, fromCallback, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix13",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "on",
  tags: "busy",
  on: {
    back: { actions: "track" },
    "user.click": { target: ".on.gamma.view" },
    next: { target: "#off-8.shut.busy.alpha" },
  },
  states: {
    on: {
      initial: "gamma",
      on: { tick: "#mix13.on.gamma.done", back: { actions: "track", reenter: true } },
      states: {
        idle: {},
        gamma: {
          type: "parallel",
          tags: "busy",
          states: {
            done: {
              on: {
                toggle: { target: "#mix13.off.shut.off", guard: "hasItems" },
                back: [
                  { target: "hist", guard: or(["isAdmin", not("isAdmin")]) },
                  { target: "shut", guard: stateIn("#shut-19"), reenter: true },
                ],
              },
              always: { target: "#mix13.on.gamma.hist", guard: and(["isAdmin", "isAdmin"]) },
            },
            shut: {
              on: { reset: { target: "#mix13.on.gamma", reenter: true }, next: "#off-8.busy.shut" },
            },
            view: {
              on: {
                "ui.*": [
                  { target: "#mix13.on.idle", guard: ({ context }) => context.retries > 0 },
                  { target: "#off-8.shut.shut", guard: or(["canRetry", not("isAdmin")]) },
                ],
                toggle: { target: "#shut\\.13.busy" },
                reset: [
                  {
                    target: "#mix13.on.gamma.shut",
                    guard: ({ context }) => context.retries > 0,
                    reenter: true,
                  },
                  { target: "#shut\\.13.shut.off", guard: "isReady" },
                ],
              },
            },
            hist: { type: "history" },
          },
        },
      },
    },
    off: {
      id: "off-8",
      type: "parallel",
      on: { go: { target: "#mix13.on", guard: "isReady" } },
      onDone: "#mix13.off.busy.open",
      states: {
        busy: {
          initial: "beta",
          on: { cancel: "#mix13.on.idle" },
          onDone: { target: "#shut\\.13.shut" },
          states: {
            open: {
              invoke: { src: "ticker", id: "inv107", systemId: "sys102" },
              on: { cancel: "#off-8.shut.shut.off" },
            },
            shut: { id: "shut-11", type: "history" },
            beta: { on: { submit: "#mix13.off.shut.busy.done" } },
          },
        },
        shut: {
          id: "shut.13",
          initial: "busy",
          on: {
            next: { target: "#mix13.on.gamma.shut" },
            "user.click": { target: ["#off-8.busy.beta", "#shut\\.13"] },
            toggle: [
              { target: "#mix13.off.busy.open", guard: not("canRetry"), reenter: true },
              {
                target: ["#mix13.off.busy.open", "#mix13.off.shut"],
                guard: ({ context }) => context.retries > 0,
                reenter: true,
              },
            ],
          },
          after: { "1000": "#mix13.on.gamma.done" },
          always: { target: "#mix13.off.shut.shut.off", guard: or(["isAdmin", not("isReady")]) },
          states: {
            busy: {
              initial: "done",
              states: {
                done: {
                  id: "done-15",
                  on: { next: "#off-8", back: { target: "#mix13.on.gamma.done", reenter: true } },
                },
                alpha: { id: "alpha-16", type: "final" },
                load: {
                  id: "load-17",
                  on: {
                    toggle: { target: "#mix13.off.shut", reenter: true },
                    "ui.*": { target: "#mix13.off.busy.shut", guard: "isAdmin" },
                    tick: { target: "#mix13.off.busy.shut" },
                  },
                },
                busy: {
                  id: "busy-18",
                  on: { "ui.*": { target: "#mix13.on.gamma.view" } },
                  always: { target: "#load-17", guard: "hasItems" },
                },
              },
            },
            shut: {
              id: "shut-19",
              initial: "done",
              states: {
                done: {},
                wait: {
                  on: {
                    toggle: { target: "#off-8.shut.busy.load", guard: and(["isAdmin", "isReady"]) },
                  },
                  after: { "1000": { target: "#shut\\.13.shut.done", guard: "isReady" } },
                },
                off: {
                  always: { target: "#off-8.shut.shut.wait", guard: or(["isReady", not("isReady")]) },
                },
              },
            },
            off: {
              on: {
                back: [
                  { target: "#mix13.off.shut.shut.done", guard: and(["isAdmin", "canRetry"]) },
                  { target: "#mix13.on.gamma.done" },
                ],
                tick: { target: "#mix13.on.gamma.view" },
              },
            },
          },
        },
      },
    },
    edit: { history: true },
  },
});
