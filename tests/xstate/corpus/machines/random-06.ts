// random: a mixed machine (seed 6): 21 states, 0 history, 1 parallel, 3 with ids.
import { and, assign, fromCallback, fromPromise, not, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { short: 100, long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix6",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "alpha",
  on: {
    next: { target: "#mix6.busy.load", guard: "hasItems" },
    "user.click": { target: ".idle", reenter: true },
  },
  states: {
    alpha: { id: "alpha-1", after: { long: { target: "#mix6.busy.done.shut" } } },
    view: {
      initial: "view",
      invoke: [{ src: "ticker", id: "inv24" }, { src: "ticker", id: "inv20" }],
      on: {
        next: [{ target: "#idle-19", guard: not("canRetry") }, { actions: "track" }],
        toggle: { target: "#mix6.busy.done.shut" },
      },
      states: {
        view: { on: { submit: { target: "view", reenter: true } } },
        beta: {
          initial: "done",
          on: { cancel: { target: "#mix6.busy.load.view" }, next: "#mix6.busy.done.gamma.shut" },
          states: {
            done: { always: { target: "#alpha-1", guard: not("isAdmin") } },
            busy: {
              invoke: { src: "fetcher", id: "inv65", onError: { target: "#idle-19" } },
              on: { back: { target: "#mix6.view.beta" } },
            },
          },
        },
        gamma: {
          invoke: [
            { src: "ticker" },
            {
              src: "fetcher",
              id: "inv72",
              onDone: { target: "." },
              onError: { target: "#mix6.busy", guard: ({ context }) => context.retries > 0 },
            },
          ],
          on: { cancel: "beta.busy", "ui.*": "#mix6.busy.done" },
        },
      },
    },
    idle: { type: "final" },
    busy: {
      type: "parallel",
      on: {
        cancel: { target: ".done", guard: "canRetry" },
        tick: "view.beta.busy",
        reset: "#mix6.busy.load.alpha",
      },
      after: { long: { target: "busy", reenter: true } },
      always: { actions: "track", guard: "hasItems" },
      onDone: ".load.load",
      states: {
        load: {
          initial: "load",
          onDone: { target: ["#mix6.busy.load.load", "#mix6.busy.done.gamma"] },
          states: {
            load: {
              id: "load.11",
              on: { back: { target: "#mix6.busy.done.gamma" }, go: "#mix6.busy.load" },
              after: { short: { actions: "track" } },
            },
            alpha: {
              on: {
                "ui.*": { target: "#mix6.view.gamma", guard: and(["isAdmin", "hasItems"]) },
                reset: { target: "#mix6.busy.done.shut" },
                next: [{ actions: "track", guard: "isAdmin" }, { target: "#mix6.busy.done.gamma" }],
              },
            },
            view: { type: "final" },
          },
        },
        done: {
          initial: "shut",
          tags: "busy",
          on: { "ui.*": { target: "#mix6.view.beta.busy", guard: and(["canRetry", "isAdmin"]) } },
          states: {
            gamma: {
              initial: "edit",
              invoke: [
                { src: "ticker", id: "inv155" },
                {
                  src: "fetcher",
                  systemId: "sys153",
                  onDone: { actions: "track", guard: "canRetry" },
                  onError: { target: "#mix6.idle" },
                },
              ],
              on: {
                back: { target: "#mix6.busy.done.gamma", guard: stateIn("#load\\.11") },
                go: { target: "#mix6.view.view", guard: "isAdmin" },
              },
              onDone: { target: "shut", reenter: true },
              states: {
                edit: {
                  on: { "ui.*": { target: "#mix6.view" }, go: { target: "#mix6.busy.done.gamma.shut" } },
                },
                shut: {
                  invoke: { src: "fetcher", id: "inv173", onDone: { target: "#mix6.idle" } },
                  on: { "ui.*": "#mix6.busy.done" },
                },
              },
            },
            shut: {
              initial: "idle",
              states: {
                idle: {
                  id: "idle-19",
                  on: {
                    toggle: { target: "#mix6.busy.done.gamma.shut", reenter: true },
                    go: { actions: "track" },
                    cancel: "#mix6.busy.done.shut",
                  },
                },
                done: {},
              },
            },
          },
        },
      },
    },
  },
});
