// impl: `createMachine(config, impl)` where the invokes of two states name actors of the implementations.
import { createMachine, fromPromise } from "xstate";

export const machine = createMachine(
  {
    id: "impl-two",
    initial: "f",
    states: {
      f: { invoke: { src: "fetcher", onDone: "s" } },
      s: { invoke: { src: "saver", input: { value: 1 }, onDone: "f" } },
    },
  },
  {
    actors: {
      fetcher: fromPromise(async () => ({ ok: true })),
      saver: fromPromise(async ({ input }: { input: { value: number } }) => input.value),
    },
  },
);
