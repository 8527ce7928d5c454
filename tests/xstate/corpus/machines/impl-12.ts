// impl: `setup` with `types` and the Machine's `input` to context.
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "typed",
  context: ({ input }) => ({ n: input.n }),
  initial: "a",
  states: { a: { on: { go: { guard: ({ context }) => context.n > 0, target: "b" } } }, b: {} },
});
