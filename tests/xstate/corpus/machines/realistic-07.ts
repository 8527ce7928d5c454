// realistic: a checkout (nested compound states, `onDone`, `#id` targets, final `output`).
import { fromPromise, setup } from "xstate";

export const machine = setup({
  actors: { saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value) },
  guards: { hasItems: ({ context }) => context.items.length > 0 },
}).createMachine({
  id: "checkout",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "cart",
  output: ({ context }) => ({ items: context.items }),
  states: {
    cart: { on: { checkout: { guard: "hasItems", target: "shipping" } } },
    shipping: {
      initial: "address",
      states: {
        address: { on: { next: "method" } },
        method: { on: { next: "chosen", back: "address" } },
        chosen: { type: "final" },
      },
      onDone: "payment",
      on: { cancel: "#checkout.cart" },
    },
    payment: {
      invoke: {
        src: "saver",
        id: "pay",
        input: { value: 100 },
        onDone: "confirmed",
        onError: "#checkout.shipping",
      },
    },
    confirmed: { type: "final", output: { ok: true } },
  },
});
