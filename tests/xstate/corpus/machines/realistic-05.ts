// realistic: authentication (invoke arrays, `systemId`, `onDone` and `onError`, a wildcard).
import { assign, fromCallback, fromPromise, setup } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  actions: { bump: assign({ retries: ({ context }) => context.retries + 1 }), track: () => {} },
}).createMachine({
  id: "auth",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "checking",
  states: {
    checking: {
      invoke: [
        {
          src: "fetcher",
          id: "session",
          systemId: "session",
          onDone: "signedIn",
          onError: "signedOut",
        },
        { src: "ticker", id: "timeout" },
      ],
    },
    signedOut: { on: { login: "signingIn", "*": { actions: "track" } } },
    signingIn: {
      invoke: {
        src: "saver",
        input: { value: 0 },
        onDone: "signedIn",
        onError: { target: "signedOut", actions: "bump" },
      },
    },
    signedIn: { on: { logout: "signedOut" }, tags: ["authed"] },
  },
});
