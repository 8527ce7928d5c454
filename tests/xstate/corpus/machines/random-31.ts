// random: a mixed machine (seed 31): 6 states, 0 history, 0 parallel, 1 with ids.
import { and, fromCallback, not, or, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000 },
}).createMachine({
  id: "mix31",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "shut",
  on: { submit: "#mix31.edit" },
  after: { long: { target: "#wait-3", guard: "isReady", reenter: true } },
  states: {
    shut: {
      on: {
        back: { target: "busy", guard: not("isAdmin") },
        toggle: { target: "#mix31.busy", guard: and(["isAdmin", "isReady"]) },
        tick: { target: "edit.wait", guard: not("canRetry") },
      },
    },
    edit: {
      initial: "wait",
      on: {
        tick: [{ target: "#wait-3", guard: or(["canRetry", not("hasItems")]) }, { target: "shut" }],
      },
      states: {
        wait: {
          id: "wait-3",
          invoke: [{ src: "ticker" }, { src: "ticker" }],
          on: {
            go: [
              { target: "#mix31.edit", guard: and(["hasItems", "isReady"]) },
              { target: "#mix31.shut", reenter: true },
            ],
            cancel: [
              { target: "#mix31.edit.wait", guard: ({ context }) => context.retries > 0 },
              { target: ".", guard: "isReady" },
            ],
            back: { target: "#mix31.edit.wait" },
          },
          after: { "100": { target: "#mix31.busy", guard: ({ context }) => context.retries > 0 } },
        },
        idle: {
          on: {
            back: [
              { target: "#mix31.busy", guard: ({ context }) => context.retries > 0 },
              { target: "#mix31.shut" },
            ],
          },
        },
      },
    },
    busy: { on: { back: { target: "#mix31.edit.idle", guard: and(["isReady", "isAdmin"]) } } },
  },
});
