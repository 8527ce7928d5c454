// realistic: a chat connection (reconnect with `after` and `reenter`, a parallel state of send and receive).
import { assign, fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  delays: { backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }), track: () => {} },
}).createMachine({
  id: "chat",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "connecting",
  states: {
    connecting: { invoke: { src: "fetcher", onDone: "connected", onError: "waiting" } },
    waiting: { after: { backoff: { target: "connecting", actions: "bump" } } },
    connected: {
      type: "parallel",
      on: { drop: "waiting", ping: { target: "connected", reenter: true } },
      states: {
        sending: {
          initial: "idle",
          states: {
            idle: { on: { send: "busy" } },
            busy: { invoke: { src: "saver", input: { value: 1 }, onDone: "idle" } },
          },
        },
        receiving: {
          initial: "listening",
          states: {
            listening: { invoke: { src: "ticker", id: "socket" }, on: { tick: { actions: "track" } } },
          },
        },
      },
    },
  },
});
