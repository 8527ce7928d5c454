// random: a mixed machine (seed 16): 3 states, 0 history, 0 parallel, 1 with ids.
import { fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: { fetcher: fromPromise(async () => ({ ok: true })) },
  guards: { isReady: ({ context }) => context.ready, canRetry: ({ context }) => context.retries < 3 },
  delays: { short: 100, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {} },
}).createMachine({
  id: "mix16",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "ready",
  invoke: {
    src: "fetcher",
    systemId: "sys00",
    onDone: { target: ".ready", guard: or(["isReady", not("isReady")]) },
  },
  on: {
    back: [{ target: "#mix16.ready", guard: stateIn("#ready-1") }, { actions: "track" }],
    submit: { target: ".busy" },
    cancel: [
      { target: "#mix16.ready", guard: ({ context }) => context.retries > 0 },
      { target: ".busy", reenter: true },
    ],
  },
  states: {
    ready: {
      id: "ready-1",
      invoke: { src: "fetcher", onDone: "#mix16.busy", onError: { target: "ready", guard: "canRetry" } },
      on: { next: "#mix16.ready" },
    },
    busy: {
      on: {
        toggle: "ready",
        "ui.*": [
          { target: ".", guard: stateIn("#ready-1"), reenter: true },
          { actions: "track", guard: ({ context }) => context.retries > 0 },
        ],
      },
      after: {
        short: { target: "ready", guard: "canRetry" },
        backoff: { target: "#mix16.ready", guard: ({ context }) => context.retries > 0 },
      },
    },
  },
});
