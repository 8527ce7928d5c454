// impl: `createMachine(config)` with inline guards and inline invoke logic.
import { createMachine, fromPromise } from "xstate";

export const machine = createMachine({
  id: "plain-inline",
  context: { n: 0 },
  initial: "a",
  states: {
    a: { on: { go: { guard: ({ context }) => context.n === 0, target: "b" } } },
    b: { invoke: { src: fromPromise(async () => 1), onDone: "a" } },
  },
});
