// random: a mixed machine (seed 52): 7 states, 0 history, 0 parallel, 0 with ids.
import { assign, fromPromise, not, setup } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { hasItems: ({ context }) => context.items.length > 0 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix52",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "gamma",
  states: {
    idle: {
      invoke: { src: "fetcher", id: "inv19", onDone: "#mix52.gamma.open" },
      on: { go: { target: "#mix52.gamma.view" } },
    },
    beta: { type: "final" },
    on: {
      on: {
        reset: { target: "#mix52.gamma.view" },
        "user.click": { target: "#mix52.gamma" },
        back: [{ actions: "track", guard: ({ context }) => context.retries > 0 }, { target: "gamma" }],
      },
    },
    gamma: {
      initial: "open",
      on: {
        next: "#mix52.beta",
        tick: [{ actions: "track", guard: ({ context }) => context.retries > 0 }, { target: "gamma" }],
      },
      always: { target: "#mix52.idle", guard: not("hasItems") },
      states: {
        open: { after: { "100": "#mix52.gamma" } },
        view: {
          on: {
            "user.click": { target: "open", guard: ({ context }) => context.retries > 0 },
            submit: { target: "#mix52.gamma.view" },
            next: { target: "#mix52.on" },
          },
        },
      },
    },
  },
});
