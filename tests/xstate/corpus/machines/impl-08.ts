// impl: `setup({ actors })` and `.provide({ guards })` for guards that setup does not have.
import { fromPromise, setup } from "xstate";

export const machine = setup({ actors: { fetcher: fromPromise(async () => ({ ok: true })) } })
  .createMachine({
    id: "provide-guards",
    context: { ready: false, retries: 0, role: "user", items: [] },
    initial: "a",
    states: {
      a: { on: { go: [{ guard: "isReady", target: "b" }, { guard: "isAdmin", target: "c" }] } },
      b: { invoke: { src: "fetcher" } },
      c: {},
    },
  })
  .provide({
    guards: { isReady: ({ context }) => context.ready, isAdmin: ({ context }) => context.role === "admin" },
  });
