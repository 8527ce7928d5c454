// random: a mixed machine (seed 55): 13 states, 1 history, 0 parallel, 3 with ids.
import { and, assign, fromCallback, fromPromise, not, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix55",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "shut",
  on: { tick: ".edit.wait", next: { target: "#mix55.load", guard: not("isReady") } },
  states: {
    shut: { invoke: [{ src: "ticker" }, { src: "fetcher" }], on: { reset: { target: "#alpha-9" } } },
    load: {
      on: {
        "user.click": [
          { target: "#mix55.edit.wait.ready.ready", guard: "isReady" },
          { target: "#mix55.edit", guard: stateIn("#edit-3") },
        ],
      },
    },
    edit: {
      id: "edit-3",
      initial: "shut",
      after: { "1000": { actions: "track", guard: and(["hasItems", "isReady"]) } },
      states: {
        shut: { on: { tick: "#mix55.ready" } },
        wait: {
          initial: "done",
          on: {
            submit: { target: "#mix55.load" },
            tick: { target: ".ready", guard: "isAdmin" },
            cancel: { actions: "track", reenter: true },
          },
          always: { actions: "track", guard: and(["isReady", "hasItems"]) },
          states: {
            done: {
              on: { submit: "#mix55.ready" },
              after: {
                "2500": { target: ".", guard: "isAdmin" },
                long: { target: "#mix55.edit.idle", guard: "hasItems" },
              },
              always: {
                target: "#mix55.edit.wait.ready.ready",
                guard: ({ context }) => context.retries > 0,
              },
            },
            ready: {
              initial: "ready",
              on: {
                tick: [
                  { target: "#mix55.edit.shut", guard: ({ context }) => context.retries > 0 },
                  { target: "#mix55.shut" },
                ],
                go: { target: "#mix55.shut", guard: "isReady" },
                "ui.*": "#mix55.load",
              },
              states: {
                ready: {
                  tags: "busy",
                  invoke: { src: "fetcher", id: "inv80", systemId: "sys86", onDone: { actions: "track" } },
                  on: { "ui.*": "#mix55.edit.wait.ready.alpha" },
                },
                alpha: { id: "alpha-9", on: { "user.click": "#mix55.edit.wait.done" } },
              },
            },
            on: { id: "on-10", invoke: { src: "ticker", id: "inv101" } },
          },
        },
        idle: { history: "deep" },
      },
    },
    ready: { type: "final" },
  },
});
