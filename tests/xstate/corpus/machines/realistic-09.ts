// realistic: a vending machine (guards with params, targetless transitions, `always`).
import { assign, setup } from "xstate";

export const machine = setup({
  guards: { atLeast: ({ context }, params: { n: number }) => context.retries >= params.n },
  delays: { long: 5000 },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }), reset: assign({ retries: 0 }) },
}).createMachine({
  id: "vend",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "idle",
  states: {
    idle: { on: { coin: { target: "paying", actions: "bump" } } },
    paying: {
      on: {
        coin: { actions: "bump" },
        choose: [
          { guard: { type: "atLeast", params: { n: 2 } }, target: "vending" },
          { target: "paying", reenter: true },
        ],
      },
      after: { long: "refund" },
    },
    vending: { after: { "1000": "idle" }, entry: "reset" },
    refund: { always: { target: "idle", actions: "reset" } },
  },
});
