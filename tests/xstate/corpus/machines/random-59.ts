// random: a mixed machine (seed 59): 3 states, 0 history, 0 parallel, 0 with ids.
import { fromCallback, not, setup } from "xstate";

export const machine = setup({
  actors: { ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }) },
  guards: { canRetry: ({ context }) => context.retries < 3 },
  actions: { track: () => {} },
}).createMachine({
  id: "mix59",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "edit",
  invoke: [{ src: "ticker" }, { src: "ticker" }],
  on: {
    "user.click": [{ target: ".edit", guard: not("canRetry") }, { target: ".shut" }],
    go: { target: "#mix59.edit" },
  },
  states: {
    shut: {
      on: { cancel: { target: "#mix59.edit" }, next: { actions: "track" }, toggle: { target: "edit" } },
    },
    edit: { on: { tick: { target: "." }, toggle: { target: ".", reenter: true } } },
  },
});
