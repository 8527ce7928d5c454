// random: a mixed machine (seed 28): 25 states, 1 history, 2 parallel, 6 with ids.
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
  delays: { long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix28",
  context: { ready: false, retries: 0, role: "user", items: [] },
  type: "parallel",
  invoke: { src: "ticker", systemId: "sys00" },
  on: { "user.click": "#mix28.off.busy.idle" },
  states: {
    off: {
      id: "off-1",
      initial: "gamma",
      invoke: [
        {
          src: "fetcher",
          id: "inv11",
          onDone: "done.shut\\.x.beta",
          onError: { target: "#mix28.off.busy" },
        },
        {
          src: "fetcher",
          id: "inv19",
          systemId: "sys19",
          onDone: { target: "#mix28.off.gamma", reenter: true },
          onError: { target: "#off-1.busy.busy" },
        },
      ],
      states: {
        busy: {
          initial: "idle",
          on: {
            tick: { target: "#mix28.done", guard: stateIn("#ready-8") },
            reset: [
              { target: ".ready", guard: "isAdmin", reenter: true },
              { target: "#mix28.off.done.busy.edit" },
            ],
          },
          onDone: "busy.beta",
          states: {
            idle: {},
            beta: {
              on: { reset: { actions: "track" } },
              after: {
                "100": "#off-1.busy.busy.open",
                backoff: { target: "#off-1.done.wait", guard: "isReady" },
              },
            },
            busy: {
              type: "parallel",
              on: { tick: { target: "#off-1.busy" }, next: { target: "#on-17", reenter: true } },
              states: {
                open: {
                  on: {
                    "user.click": [
                      {
                        target: "#mix28.done.shut\\.x.wait",
                        guard: and(["canRetry", "hasItems"]),
                        reenter: true,
                      },
                      { target: ["open", "#mix28.off.busy.busy.idle"] },
                    ],
                    submit: [
                      { target: "#mix28.off.busy.beta", guard: "isAdmin", reenter: true },
                      {
                        target: "#mix28.done.shut\\.x.wait",
                        guard: ({ context }) => context.retries > 0,
                      },
                    ],
                    toggle: { actions: "track" },
                  },
                },
                idle: { on: { toggle: { target: "#mix28.done" } } },
              },
            },
            ready: { id: "ready-8", type: "final" },
          },
        },
        done: {
          initial: "wait",
          tags: ["busy", "t9"],
          states: {
            wait: {
              invoke: [{ src: "ticker", id: "inv103" }, { src: "ticker", id: "inv109" }],
              always: { target: "#off-1.done", guard: "isAdmin" },
            },
            busy: {
              id: "busy-11",
              initial: "view",
              onDone: "#off-1.busy.busy",
              states: { view: {}, edit: { type: "final" } },
            },
          },
        },
        gamma: {
          on: {
            submit: "#mix28.off.busy.busy.open",
            "user.click": { actions: "track" },
            cancel: [
              { target: "#off-1.busy.beta", guard: "isAdmin" },
              { target: "#mix28.done.shut\\.x.wait" },
            ],
          },
          after: {
            "2500": { actions: "track", guard: or(["isAdmin", not("hasItems")]) },
            long: "done.busy.edit",
          },
          always: { target: "#mix28.off.done.busy.view", guard: or(["isAdmin", not("isAdmin")]) },
        },
        edit: { after: { "100": "#mix28.done" } },
      },
    },
    done: {
      initial: "on",
      on: {
        reset: { target: "done.shut\\.x.busy" },
        toggle: [
          { target: "open.gamma", guard: or(["canRetry", not("canRetry")]) },
          { target: "#mix28.open.wait", guard: "canRetry" },
        ],
        cancel: { target: "#off-1.busy.ready", guard: or(["hasItems", not("hasItems")]) },
      },
      states: {
        on: { id: "on-17" },
        "shut.x": {
          initial: "wait",
          tags: ["busy", "t18"],
          on: {
            cancel: { actions: "track", guard: "canRetry" },
            next: { target: "#open-22.wait" },
            go: [
              { target: "#mix28.off.busy", guard: stateIn("#open-22") },
              { target: "#mix28.off.done.busy", guard: "hasItems" },
            ],
          },
          after: {
            long: { target: "#off-1.gamma", reenter: true },
            backoff: { target: "shut\\.x.busy", guard: stateIn("#on-17") },
          },
          states: {
            wait: {
              on: {
                toggle: { target: "#mix28.open.wait", guard: stateIn("#open-22") },
                reset: { target: "#mix28.open.gamma" },
              },
            },
            busy: { on: { cancel: { actions: "track", guard: ({ context }) => context.retries > 0 } } },
            beta: { type: "history", history: "shallow" },
          },
        },
      },
    },
    open: {
      id: "open-22",
      initial: "gamma",
      on: {
        go: [{ target: "#ready-8", guard: and(["hasItems", "isAdmin"]) }, { target: "off.busy.busy" }],
        "ui.*": [{ target: "#mix28.off.done.busy", guard: "isReady" }, { target: "done.shut\\.x" }],
      },
      always: { target: "#mix28.done.on", guard: and(["canRetry", "isAdmin"]) },
      onDone: { target: "#mix28.off.done" },
      states: {
        gamma: {
          invoke: [{ src: "ticker", id: "inv239" }, { src: "ticker", id: "inv230", systemId: "sys236" }],
          on: {
            cancel: [
              { target: "#mix28.off.busy.ready", guard: "isReady" },
              { target: "#mix28.done.shut\\.x" },
            ],
            tick: { target: "#mix28.off.edit", reenter: true },
            go: [
              { target: "wait", guard: or(["isReady", not("canRetry")]) },
              { target: "#busy-11", guard: not("isAdmin") },
            ],
          },
          always: { target: "#mix28.off.busy", guard: stateIn("#ready-8") },
        },
        wait: {
          id: "wait.24",
          on: {
            toggle: [{ actions: "track", guard: "hasItems", reenter: true }, { target: "#mix28.off.gamma" }],
            back: "gamma",
            submit: { target: "#busy-11.edit" },
          },
        },
      },
    },
  },
});
