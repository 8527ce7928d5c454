// impl: `createMachine(config, { actors })` only; the rest inline.
import { createMachine, fromPromise } from "xstate";

export const machine = createMachine(
  {
    id: "impl-actors",
    initial: "a",
    states: { a: { invoke: { src: "fetcher", onDone: "b" } }, b: {} },
  },
  { actors: { fetcher: fromPromise(async () => ({ ok: true })) } },
);
